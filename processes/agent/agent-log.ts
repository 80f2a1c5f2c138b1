import type { AgentPlan } from '../../core/plan/plan.ts'

/** What the agent says as it goes: one line per generation taken or refused, and each new error. */
export type AgentLog = (line: string, level: 'info' | 'error') => void

/** How the agent heard that there might be a new generation: `signed`, a push that carried HEAD signed for this run, which it took without asking. */
export type Trigger = 'start' | 'push' | 'signed' | 'watch' | 'poll'

/** How a generation was taken, as the log line tells it. */
export type Taken = { applied: 'runtime'; plan: AgentPlan } | { applied: 'reload'; reasons: readonly string[] } | { applied: 'written'; checked: boolean }

const HEARD: Record<Trigger, string> = { start: 'at start', push: 'by push', signed: 'by signed push', watch: 'by watch', poll: 'by poll' }
/** Reasons shown before the rest are counted: a resync can make hundreds of backends new at once. */
const REASONS_SHOWN = 3

/** `generation 14 applied at runtime in 38 ms: 3 map entries, 1 server (by push)`, `generation 15 reloaded in 410 ms: backend shop_web_80 is new (by poll)`. */
export function takenLine(generation: number, taken: Taken, ms: number, trigger: Trigger): string {
  const how = (() => {
    switch (taken.applied) {
      case 'runtime':
        return `applied at runtime in ${ms} ms: ${runtimeChanges(taken.plan)}`
      case 'reload':
        return `reloaded in ${ms} ms: ${reasonList(taken.reasons)}`
      case 'written':
        return `written in ${ms} ms, ${taken.checked ? 'checked by haproxy -c' : 'unchecked (no haproxy here)'}`
    }
  })()
  return `generation ${generation} ${how} (${HEARD[trigger]})`
}

/**
 * `3 map entries (maps/exact.map, maps/prefix.map entry by entry), 1 server`: what a runtime
 * apply changed, zero counts left out, and how each map took its entries.
 */
export function runtimeChanges(plan: AgentPlan): string {
  const counts = [
    plan.maps.length > 0 ? count(plan.maps.length, 'map entry', 'map entries') + mapsHow(plan) : '',
    count(plan.servers.length, 'server', 'servers'),
    count(plan.certificates.length, 'certificate', 'certificates'),
    count(plan.acls?.length ?? 0, 'ACL entry (source ranges)', 'ACL entries (source ranges)'),
  ]
  const said = counts.filter((text) => text !== '')
  return said.length > 0 ? said.join(', ') : 'nothing HAProxy serves changed'
}

/** ` (maps/prefix.map entry by entry; maps/exact.map swapped whole: 600 changes for 601 entries)`, or nothing when no map changed. */
function mapsHow({ mapUpdates }: AgentPlan): string {
  const entryWise = mapUpdates.filter((update) => update.how === 'entries').map((update) => update.map)
  const swapped = mapUpdates.filter((update) => update.how === 'swap').map((update) => `${update.map} swapped whole: ${update.why}`)
  const said = [...(entryWise.length ? [`${entryWise.join(', ')} entry by entry`] : []), ...swapped]
  return said.length ? ` (${said.join('; ')})` : ''
}

/** `generation 7 refused by haproxy -c (blaming Secret shop/tls; the files before it stay current): [ALERT] …`, on one line. */
export function refusedLine(generation: number, circumstances: string, words: string): string {
  return `generation ${generation} refused by haproxy -c (${circumstances}): ${oneLine(words)}`
}

/** `generation 14`, or the manifest where the number was not recorded (files an older agent installed). */
export function generationName(generation: number | undefined, manifest: string): string {
  return generation === undefined ? `the generation of manifest ${manifest.slice(0, 12)}` : `generation ${generation}`
}

/** An error on one line, for a log that reads a line per entry. */
export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' | ')
}

function reasonList(reasons: readonly string[]): string {
  const shown = reasons.slice(0, REASONS_SHOWN).join('; ')
  return reasons.length > REASONS_SHOWN ? `${shown}; and ${reasons.length - REASONS_SHOWN} more` : shown
}

function count(n: number, one: string, many: string): string {
  return n === 0 ? '' : `${n} ${n === 1 ? one : many}`
}

export interface Following {
  cluster: string
  source: string
  /** Where pushes are taken, and the URL the function was told; none without `--listen`. */
  push?: { listen: { address: string; port: number }; advertised: string | undefined } | undefined
  watch?: { namespace: string; name: string } | undefined
  /** The `--poll` duration, as given. */
  poll: string
}

/** What the agent says when it starts: `following cluster prod at https://…: push on 127.0.0.1:9000 (advertised as …), watch HAProxyCfg hapedge/prod, poll every 5s`. */
export function followingLine({ cluster, source, push, watch, poll }: Following): string {
  const ways = [
    push
      ? `push on ${hostPort(push.listen)} (${push.advertised ? `advertised as ${push.advertised}` : 'not advertised, so the function cannot push: set --advertise or POD_IP'})`
      : 'no push (no --listen)',
    ...(watch ? [`watch HAProxyCfg ${watch.namespace}/${watch.name}`] : []),
    `poll every ${poll}`,
  ]
  return `following cluster ${cluster} at ${source}: ${ways.join(', ')}`
}

function hostPort({ address, port }: { address: string; port: number }): string {
  return `${address.includes(':') ? `[${address}]` : address}:${port}`
}
