import { mapSteps, type MapStep } from '../../core/plan/map-updates.ts'
import type { AgentPlan, ServerChange } from '../../core/plan/plan.ts'
import type { HaproxySocket } from './haproxy-socket.ts'
import { loadedNames, type LoadedFiles, type LoadedNames } from './loaded-files.ts'

export interface RuntimeOptions {
  /**
   * Bytes of map lines per `add map` payload, and of `set map`/`del map` commands joined by `;`
   * on one line. HAProxy 2.6 drops a command longer than `tune.bufsize` (16 KiB by default)
   * without a word, so stay well below it; default 8 KiB.
   */
  payloadBytes?: number
  /** How long `del server` is retried while the server still holds (idle) connections; default 10 s. */
  drainTimeoutMs?: number
  /** What HAProxy loaded, as remembered since its last reload; default: asked anew. */
  loaded?: LoadedNames
}

export interface RuntimeApplied {
  /**
   * Each map changed: HAProxy's name for it, how (entry by entry, or swapped whole with the
   * version committed), the entries it changed and the entries it holds after.
   */
  maps: { map: string; name: string; how: 'entries' | 'swap'; changes: number; entries: number; version?: number }[]
  servers: ServerChange[]
  certificates: string[]
  /** Every command sent, in order, payloads left out. */
  commands: string[]
}

/** A runtime step failed: nothing after it ran, and the caller falls back to a checked reload. */
export class RuntimeStepError extends Error {
  constructor(
    readonly step: string,
    readonly applied: RuntimeApplied,
    cause: unknown,
  ) {
    super(`runtime apply stopped at \`${step}\`: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'RuntimeStepError'
  }
}

type Step = (command: string, options?: { payload?: string; expect?: RegExp; retryWhile?: RegExp }) => Promise<string>
/** Commands on one connection, separated by `;`, each answer held to `expect`. */
type Steps = (commands: readonly string[], expect: RegExp) => Promise<void>

/** `add map`, `set map`, `del map`, `add acl` and `del acl` answer nothing when they succeed (`entry not found.`, `Key not found.` otherwise). */
const SILENT = /^\s*$/

/**
 * Applies a plan that needs no reload through the stats socket (`level admin`), the next
 * generation's files already in hand (`files`: path → text): server slots first, so a route
 * never points at a backend with nothing ready; then the maps, each as the plan says (entry by
 * entry on the live map, or swapped whole and atomically: `prepare map` → `add map @ver` →
 * `commit map @ver`), in the order of mapSteps, every entry added or set before any is deleted;
 * then certificates (`set ssl cert` → `commit ssl cert`). Stops at the first failure with a
 * RuntimeStepError.
 */
export async function applyAtRuntime(
  socket: HaproxySocket,
  plan: AgentPlan,
  files: ReadonlyMap<string, string>,
  options: RuntimeOptions = {},
): Promise<RuntimeApplied> {
  if (plan.reload) throw new Error(`the plan needs a reload, not the runtime API: ${plan.reasons.join('; ')}`)
  const { payloadBytes = 8192, drainTimeoutMs = 10_000, loaded = loadedNames(socket) } = options
  const applied: RuntimeApplied = { maps: [], servers: [], certificates: [], commands: [] }
  const step: Step = async (command, { payload, expect, retryWhile } = {}) => {
    applied.commands.push(command)
    const deadline = Date.now() + drainTimeoutMs
    for (;;) {
      try {
        const answer = payload === undefined ? await socket.run(command) : await socket.runWithPayload(command, payload)
        if (expect && !expect.test(answer)) throw new Error(`unexpected answer: ${answer.trim() || '(none)'}`)
        return answer
      } catch (error) {
        const retry = retryWhile && error instanceof Error && retryWhile.test(error.message) && Date.now() < deadline
        if (!retry) throw new RuntimeStepError(command, applied, error)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }
  const steps: Steps = async (commands, expect) => {
    for (const line of commandLines(commands, payloadBytes)) {
      applied.commands.push(...line)
      const answers = await socket.runAll(line).catch((error: unknown) => {
        throw new RuntimeStepError(line.length === 1 ? line[0]! : `${line[0]} (and ${line.length - 1} more on its line)`, applied, error)
      })
      const refused = answers.findIndex((answer) => !expect.test(answer))
      if (refused >= 0) throw new RuntimeStepError(line[refused]!, applied, new Error(`unexpected answer: ${answers[refused]!.trim()}`))
    }
  }

  // What is being applied, for an error that comes from no command (a missing file or map).
  let at = ''
  try {
    for (const change of plan.servers) {
      at = `${change.op} server ${change.backend}/${change.server}`
      await applyServer(change, step)
      applied.servers.push(change)
    }
    at = 'show map'
    const mapNames = plan.mapUpdates.length > 0 ? await loaded.maps() : undefined
    const versions = new Map<string, number>()
    for (const change of mapSteps(plan.mapUpdates)) {
      at = `${change.op} map ${change.map}`
      const name = loadedName(mapNames!, change.map, 'map')
      if (change.op === 'swap') versions.set(change.map, await swapMap(name, fileText(files, change.map), step, payloadBytes))
      else await changeEntries(name, change, step, steps, payloadBytes)
    }
    for (const update of plan.mapUpdates) {
      const { map, how, entries } = update
      const version = versions.get(map)
      const changes = update.add.length + update.set.length + update.del.length
      applied.maps.push({ map, name: loadedName(mapNames!, map, 'map'), how, changes, entries, ...(version === undefined ? {} : { version }) })
    }
    const acls = plan.acls ?? []
    at = 'show acl'
    const aclNames = acls.length > 0 ? await loaded.acls() : undefined
    // Adds come before deletions (acl-updates.ts), so a changed list is never empty on the way.
    const aclCommands = acls.map(({ acl, op, pattern }) => `${op} acl ${loadedName(aclNames!, acl, 'ACL')} ${pattern}`)
    if (aclCommands.length > 0) await steps(aclCommands, SILENT)
    at = 'show ssl cert'
    const certificateNames = plan.certificates.length > 0 ? await loaded.certificates() : undefined
    for (const path of plan.certificates) {
      at = `replace certificate ${path}`
      await replaceCertificate(socket, loadedName(certificateNames!, path, 'certificate'), fileText(files, path), step)
      applied.certificates.push(path)
    }
    return applied
  } catch (error) {
    throw error instanceof RuntimeStepError ? error : new RuntimeStepError(at, applied, error)
  }
}

async function applyServer(change: ServerChange, step: Step): Promise<void> {
  const target = `${change.backend}/${change.server}`
  if (change.op === 'del') {
    await step(`set server ${target} state maint`)
    // In maintenance the slot takes no new requests; those in flight finish, and HAProxy refuses
    // the delete until they have. Cutting them (`shutdown sessions`) would fail clients mid-answer.
    await step(`del server ${target}`, { expect: /Server deleted/, retryWhile: /still has connections|still in use/ })
    return
  }
  if (!change.address) throw new Error(`server change ${change.op} ${target} has no address`)
  if (change.op === 'add') {
    // A server added at runtime starts in maintenance.
    await step(`add server ${target} ${change.address}${change.options ? ` ${change.options}` : ''}`, { expect: /New server registered/ })
    // A server added with `check` has its checks off until told (management.txt, add server).
    if (/(^| )check( |$)/.test(change.options ?? '')) await step(`enable health ${target}`)
    if (change.state === 'ready') await step(`enable server ${target}`)
    return
  }
  const { ip, port } = splitAddress(change.address)
  if (change.state === 'maint') await step(`set server ${target} state maint`)
  await step(`set server ${target} addr ${ip} port ${port}`, { expect: /changed|no need to change/ })
  if (change.state === 'ready') await step(`set server ${target} state ready`)
}

/** `10.0.0.1:8080` or `[fd00::1]:8080` → the IP and the port that `set server … addr … port …` takes. */
export function splitAddress(address: string): { ip: string; port: string } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([0-9.]+)):(\d{1,5})$/.exec(address)
  if (!match) throw new Error(`not an IPv4 address:port or [IPv6]:port: ${address}`)
  return { ip: match[1] ?? match[2]!, port: match[3]! }
}

/** A whole new version of the map, filled with the file's entries, then committed at once; its version. */
async function swapMap(name: string, text: string, step: Step, payloadBytes: number): Promise<number> {
  const prepared = await step(`prepare map ${name}`, { expect: /New version created: \d+/ })
  const version = Number(/New version created: (\d+)/.exec(prepared)![1])
  const entries = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))
  for (const payload of payloads(entries, payloadBytes)) await step(`add map @${version} ${name}`, { payload })
  // Committing a version with no entries empties the map, as an empty file would.
  await step(`commit map @${version} ${name}`)
  return version
}

/** Entries changed on the live map: new keys added in payloads, values set and keys deleted by commands joined on a line. */
async function changeEntries(name: string, change: Exclude<MapStep, { op: 'swap' }>, step: Step, steps: Steps, payloadBytes: number): Promise<void> {
  if (change.op === 'del')
    return steps(
      change.keys.map((key) => `del map ${name} ${key}`),
      SILENT,
    )
  const lines = change.entries.map(({ key, value }) => `${key} ${value}`)
  if (change.op === 'set')
    return steps(
      lines.map((line) => `set map ${name} ${line}`),
      SILENT,
    )
  for (const payload of payloads(lines, payloadBytes)) await step(`add map ${name}`, { payload, expect: SILENT })
}

/** Commands grouped into lines of at most `bytes` joined by `;` (a longer command goes alone). */
export function commandLines(commands: readonly string[], bytes: number): string[][] {
  const out: string[][] = []
  let line: string[] = []
  let size = 0
  for (const command of commands) {
    const more = Buffer.byteLength(command) + 1
    if (line.length > 0 && size + more > bytes) {
      out.push(line)
      ;[line, size] = [[], 0]
    }
    line.push(command)
    size += more
  }
  if (line.length > 0) out.push(line)
  return out
}

/** Lines joined into payloads of at most `bytes` (a longer line goes alone). */
export function payloads(lines: readonly string[], bytes: number): string[] {
  const out: string[] = []
  let current = ''
  for (const line of lines) {
    const next = `${line}\n`
    if (current !== '' && Buffer.byteLength(current) + Buffer.byteLength(next) > bytes) {
      out.push(current)
      current = ''
    }
    current += next
  }
  if (current !== '') out.push(current)
  return out
}

async function replaceCertificate(socket: HaproxySocket, name: string, pem: string, step: Step): Promise<void> {
  // An empty line would end the payload early.
  const payload = pem
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n')
  try {
    await step(`set ssl cert ${name}`, { payload, expect: /Transaction (created|updated)/ })
    await step(`commit ssl cert ${name}`, { expect: /Success!/ })
  } catch (error) {
    // Leave no transaction behind for the next attempt to stumble on.
    await socket.run(`abort ssl cert ${name}`).catch(() => undefined)
    throw error
  }
}

function fileText(files: ReadonlyMap<string, string>, path: string): string {
  const text = files.get(path)
  if (text === undefined) throw new Error(`the next generation has no file ${path}`)
  return text
}

function loadedName(loaded: LoadedFiles, path: string, kind: string): string {
  const name = loaded.nameOf(path)
  if (name === undefined) throw new Error(`HAProxy has no ${kind} loaded from ${path} (it has: ${loaded.names.join(', ') || 'none'})`)
  return name
}
