import { sectionCodec } from '../generation/file-shapes.ts'
import { aclChanges, addAclChanges } from './acl-updates.ts'
import { mapUpdate, mapUpdateFromLines, type MapLines, type MapUpdate } from './map-updates.ts'
import { emptyPlan, needReload, type AgentPlan, type Plan, withOptions } from './plan.ts'
import { CHUNKED_FILES, FILES } from '../render/files.ts'
import { EMPTY_SLOT_ADDRESS } from '../render/render-backends.ts'
import { isAclFile } from '../render/render-access.ts'

const MAPS = new Set([...CHUNKED_FILES.keys()].filter((path) => path.startsWith('maps/')).concat(FILES.defaultMap))

/** Whether HAProxy loads the file as a map, whose entries change at runtime. */
export function isMapFile(path: string): boolean {
  return MAPS.has(path)
}

/** A slot's line: its name, address, server options (render-upstream.ts), and whether it is disabled. */
const SERVER = /^ {4}server (s\d+) (\S+)(.*?)( disabled)?\n$/

/**
 * How HAProxy gets from the files it runs to the next generation's, found by comparing the
 * two: map entries, ACL entries (source ranges), server slots and certificate contents change at runtime; anything else
 * (a backend added or removed, the frontend, global settings, the crt-list) needs a reload.
 * Comparing files rather than replaying each generation's plan lets an agent that skipped
 * generations, or restarted, apply exactly the difference.
 *
 * `mapLines`, where known, are the lines of a changed map that differ between exactly these two
 * versions (from their chunk trees): the map's update is found from them instead of from both
 * whole files, which at 20,000 Ingresses are megabytes each. `paths`, where known, are the
 * paths that may differ (from the two manifests' trees): the others hold the same text, and at
 * 20,000 Ingresses some 2,000 paths (a certificate each) are not gone through for a change of two.
 */
export function planFromFiles(
  running: ReadonlyMap<string, string>,
  next: ReadonlyMap<string, string>,
  mapLines: ReadonlyMap<string, MapLines> = new Map(),
  paths: Iterable<string> = new Set([...running.keys(), ...next.keys()]),
): AgentPlan {
  const plan: AgentPlan = { ...emptyPlan(), mapUpdates: [] }
  // In path order, whatever order the paths come in (the files' own, or the manifests' trees'): the same two versions give
  // the same plan, its reasons and updates in the same order.
  for (const path of [...paths].sort()) {
    const before = running.get(path)
    const after = next.get(path)
    // A map known to have changed is not compared: its two texts may be megabytes of equal length.
    const lines = MAPS.has(path) ? mapLines.get(path) : undefined
    if (lines) addMapUpdate(plan, mapUpdateFromLines(path, lines))
    else if (before === after) continue
    else if (before === undefined || after === undefined) needReload(plan, `${path} is ${before === undefined ? 'new' : 'gone'}`)
    else if (MAPS.has(path)) addMapUpdate(plan, mapUpdate(path, before, after))
    else if (path === FILES.backends) diffBackends(before, after, plan)
    else if (/^tls\/.+\.pem$/.test(path)) plan.certificates.push(path)
    else if (isAclFile(path)) addAclChanges(plan, aclChanges(path, before, after))
    else needReload(plan, `${path} changed`)
  }
  return plan
}

function addMapUpdate(plan: AgentPlan, update: MapUpdate): void {
  const { map } = update
  plan.mapUpdates.push(update)
  for (const key of update.del) plan.maps.push({ map, key })
  for (const { key, value } of [...update.add, ...update.set]) plan.maps.push({ map, key, value })
}

function diffBackends(before: string, after: string, plan: Plan): void {
  const old = new Map(sectionCodec.decode(before).map((entry) => [entry.key, entry.value]))
  const now = new Map(sectionCodec.decode(after).map((entry) => [entry.key, entry.value]))
  // A backend that leaves the files needs no reload: nothing routes to it any more, and the next reload drops it.
  for (const [name, section] of now) {
    const was = old.get(name)
    if (was === undefined) needReload(plan, `backend ${name} is new`)
    else if (was !== section && !diffServers(name, was, section, plan)) needReload(plan, `backend ${name} changed beyond its servers`)
  }
}

/** Server slot changes as runtime commands; false when the section differs in more than its server lines. */
function diffServers(backend: string, before: string, after: string, plan: Plan): boolean {
  const was = slotsOf(before)
  const is = slotsOf(after)
  if (!was || !is || was.rest !== is.rest || was.options !== is.options) return false
  const { servers: old } = was
  const { servers: now } = is
  for (let slot = 0; slot < Math.max(old.length, now.length); slot++) {
    const was = old[slot]
    const is = now[slot]
    const server = `s${slot + 1}`
    if (!is) plan.servers.push({ op: 'del', backend, server })
    else if (!was) plan.servers.push(withOptions({ op: 'add', backend, server, address: is.address, state: is.disabled ? 'maint' : 'ready' }, is.options))
    else if (was.address !== is.address || was.disabled !== is.disabled) {
      plan.servers.push({ op: 'set', backend, server, address: is.address, state: is.disabled ? 'maint' : 'ready' })
    }
  }
  return true
}

/**
 * A section's server slots in order, and the rest of it (its header and configuration snippet,
 * which come before the slots); undefined when its server lines are not the slots s1, s2, … at its end.
 */
function slotsOf(section: string): { rest: string; options: string; servers: { address: string; disabled: boolean; options: string }[] } | undefined {
  const lines = section.split(/(?<=\n)/)
  const first = lines.findIndex((line) => SERVER.test(line))
  const rest = lines.slice(0, first < 0 ? lines.length : first).join('')
  const servers: { address: string; disabled: boolean; options: string }[] = []
  for (const line of first < 0 ? [] : lines.slice(first)) {
    if (line === '\n') continue
    const match = SERVER.exec(line)
    if (!match || match[1] !== `s${servers.length + 1}`) return undefined
    servers.push({ address: match[2]!, disabled: match[4] !== undefined || match[2] === EMPTY_SLOT_ADDRESS, options: match[3]! })
  }
  // Every slot of a backend carries its options: slots that differ are no slots the runtime API can move.
  const options = servers[0]?.options ?? ''
  if (servers.some((server) => server.options !== options)) return undefined
  return { rest, options, servers }
}
