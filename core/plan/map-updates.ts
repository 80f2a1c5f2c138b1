import { FILES } from '../render/files.ts'

/** A map entry as `add map` and `set map` take it. */
export interface MapEntry {
  key: string
  value: string
}

/**
 * How one map gets from the running generation's content to the next one's at runtime.
 * `entries`: on the live map, entry by entry — `add map` for a new key, `set map` for a new
 * value, `del map` for a key that goes; the other entries are not sent. `swap`: a new version
 * filled with every entry of the next file and committed at once (`prepare map`, `add map @v`,
 * `commit map @v`), for a change as large as the map or one entry-wise commands cannot carry.
 */
export interface MapUpdate {
  map: string
  how: 'entries' | 'swap'
  /** Why a swap; empty for `entries`. */
  why: string
  add: MapEntry[]
  set: MapEntry[]
  del: string[]
  /** Entries the map holds after the change. */
  entries: number
}

/**
 * The most `set map` and `del map` commands one map takes entry by entry. HAProxy 2.6 finds the
 * entry of each by walking the map's whole list (pat_ref_set, pat_ref_delete): measured on
 * 2.6.12 at 20,000 entries, about 0.25 ms a command, against about 270 ms to fill and commit a
 * whole version of that map. Both grow with the map, so the break-even is a count, near 1,000;
 * at 256 the lookups cost at most a quarter of a swap at any size. (`add map` appends without a
 * lookup, so adds are bounded by the rule below instead.)
 */
export const MAX_ENTRY_LOOKUPS = 256

/**
 * Maps looked up with map_reg, where the first entry that matches wins (render-regex-paths.ts, render-client-cn.ts, render-wildcard-hosts.ts,
 * render-misdirected.ts): `add map` would append out
 * of order, and their keys (regular expressions with a `(?#rank)` comment) are no command-line words. They hold a few
 * lines per regex route, so they are swapped whole.
 */
const ORDERED_MAPS: ReadonlySet<string> = new Set([
  FILES.pathRegexMap,
  FILES.rewriteRegexMap,
  FILES.clientCnMap,
  FILES.wildcardHostsMap,
  FILES.tlsWildcardListenersMap,
])

/** What a CLI command line cannot carry as a word: it would split or unescape it (payload lines are taken as they are). */
const NOT_A_WORD = /[\s;\\]/

/**
 * A line of a map file that differs between two generations, keyed by its first word, as the
 * file's chunk tree holds it (diffTrees over its lineCodec leaves): absent before (added),
 * absent after (removed), or both (changed). Lines end with their newline.
 */
export interface LineChange {
  key: string
  before?: string
  after?: string
}

/** The lines that differ between a map file's two versions, found from their chunk trees, and how many lines the next version holds (its tree's count). */
export interface MapLines {
  changes: readonly LineChange[]
  lines: number
}

/**
 * The update of one map whose file changed, from the two whole files. Entry by entry, unless (then a swap):
 * - more than MAX_ENTRY_LOOKUPS keys are set or deleted;
 * - the changes are at least as many as the entries after (a swap sends no more, and lands at once);
 * - a key is repeated in either file: `set map` and `del map` act on every entry of a key, and
 *   which of two entries matches first depends on the order they were loaded in, which entry-wise
 *   adds would not keep;
 * - a key or value holds a space, `;` or `\`, which a command line would split or unescape;
 * - the map's order matters (ORDERED_MAPS), which the file keeps and `add map` would not.
 *
 * Entry order does not matter otherwise: hapedge's maps are looked up with `map_str` (exact, an
 * index tree) and `map_beg` (longest prefix, a prefix tree; render-frontend.ts), so with unique
 * keys the entry that matches is the same whatever the order HAProxy holds them in.
 */
export function mapUpdate(map: string, before: string, after: string): MapUpdate {
  const { old, now, entries } = changedEntries(before, after)
  const update: MapUpdate = { map, how: 'entries', why: '', add: [], set: [], del: [], entries }
  for (const key of old.entries.keys()) if (!now.entries.has(key)) update.del.push(key)
  for (const [key, value] of now.entries) {
    const was = old.entries.get(key)
    if (was === undefined) update.add.push({ key, value })
    else if (was !== value) update.set.push({ key, value })
  }
  return entryWiseOrSwap(update, old.repeated ?? now.repeated)
}

/**
 * The same update from the lines that changed alone (MapLines), under the same rules: what an
 * agent finds from the chunk trees of the generation it runs and the next, without reading
 * either file whole, so that its cost is the change's and not the map's. A tree holds each key
 * once (hapedge writes a map's lines keyed by their first word, each key once: render-maps.ts),
 * so no key is repeated; the entries after are the next version's lines.
 */
export function mapUpdateFromLines(map: string, { changes, lines }: MapLines): MapUpdate {
  const update: MapUpdate = { map, how: 'entries', why: '', add: [], set: [], del: [], entries: lines }
  for (const change of changes) {
    const was = change.before === undefined ? undefined : lineEntry(change.before)
    const is = change.after === undefined ? undefined : lineEntry(change.after)
    if (was && is && was.key === is.key) {
      if (was.value !== is.value) update.set.push(is)
      continue
    }
    if (was) update.del.push(was.key)
    if (is) update.add.push(is)
  }
  return entryWiseOrSwap(update, undefined)
}

/** The update as found, entry by entry, or a swap with the first rule of mapUpdate's that asks for one. */
function entryWiseOrSwap(update: MapUpdate, repeated: string | undefined): MapUpdate {
  const lookups = update.set.length + update.del.length
  const changes = lookups + update.add.length
  const words = [...update.del, ...[...update.add, ...update.set].flatMap(({ key, value }) => [key, value])]
  const why =
    repeated !== undefined
      ? `a key is repeated (${repeated})`
      : lookups > MAX_ENTRY_LOOKUPS
        ? `${lookups} keys set or deleted (more than ${MAX_ENTRY_LOOKUPS})`
        : changes >= update.entries
          ? `${changes} ${changes === 1 ? 'change' : 'changes'} for ${update.entries} ${update.entries === 1 ? 'entry' : 'entries'}`
          : words.some((word) => NOT_A_WORD.test(word))
            ? 'a key or value a command line cannot carry'
            : changes > 0 && ORDERED_MAPS.has(update.map)
              ? 'a map whose first match wins is swapped whole'
              : ''
  return why ? { ...update, how: 'swap', why } : update
}

/** The entry a map file's line holds (`key value`, its newline aside); none for a blank line or a comment. */
function lineEntry(line: string): MapEntry | undefined {
  const text = line.endsWith('\n') ? line.slice(0, -1) : line
  if (text.trim() === '' || text.startsWith('#')) return undefined
  const space = text.indexOf(' ')
  return space < 0 ? { key: text, value: '' } : { key: text.slice(0, space), value: text.slice(space + 1) }
}

interface Entries {
  entries: Map<string, string>
  repeated?: string
}

/**
 * The entries of the lines that differ between two map files, and the entries the next one
 * holds. A change to a map of 50,000 lines touches a few of them, and parsing both files whole
 * costs the agent tens of milliseconds, so only the lines between the longest common head and
 * tail are parsed — which is exact when every key there sorts strictly between the head's last
 * key and the tail's first, as in the files hapedge renders (sorted by key, each key once:
 * render-maps.ts). Any other file is parsed whole.
 */
function changedEntries(before: string, after: string): { old: Entries; now: Entries; entries: number } {
  const head = lineStart(before, commonPrefix(before, after))
  const shared = before.length - commonSuffix(before, after, Math.min(before.length, after.length) - head)
  // The common tail starts lines in both texts: where it begins at a line of `before`, the text of `after` before it may end mid-line.
  const startsLineInAfter = (at: number) =>
    at === before.length || at - before.length + after.length === 0 || after.charCodeAt(at - before.length + after.length - 1) === 10
  const first = lineAfter(before, shared)
  const tail = startsLineInAfter(first) ? first : lineAfter(before, first + 1)
  const tailLength = before.length - tail
  const old = entriesOf(before.slice(head, tail))
  const now = entriesOf(after.slice(head, after.length - tailLength))
  const lastOfHead = lastKey(before, head)
  const firstOfTail = firstKey(before, tail)
  const inside = (parsed: Entries & { sorted: boolean }) =>
    parsed.sorted &&
    [...parsed.entries.keys()].every((key) => (lastOfHead === undefined || lastOfHead < key) && (firstOfTail === undefined || key < firstOfTail))
  if (inside(old) && inside(now)) return { old, now, entries: countEntries(after) }
  const whole = entriesOf(after)
  return { old: entriesOf(before), now: whole, entries: whole.entries.size }
}

/** A map file's entries (`key value` lines, comments and blank lines aside), key → value, a key found twice, and whether the keys come in strictly increasing order. */
function entriesOf(text: string): Entries & { sorted: boolean } {
  const entries = new Map<string, string>()
  let repeated: string | undefined
  let sorted = true
  let previous: string | undefined
  for (const line of text.split('\n')) {
    const entry = lineEntry(line)
    if (!entry) continue
    const { key, value } = entry
    if (entries.has(key)) repeated ??= key
    if (previous !== undefined && !(previous < key)) sorted = false
    previous = key
    entries.set(key, value)
  }
  return repeated === undefined ? { entries, sorted } : { entries, repeated, sorted }
}

/** Lines that hold an entry: those that start with a key (not a comment's `#`, not blank). */
function countEntries(text: string): number {
  let count = 0
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start)
    if (!/[\s#]/.test(text[start]!)) count++
    start = end < 0 ? text.length : end + 1
  }
  return count
}

const BLOCK = 4096

/** How many leading characters the two texts share. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i + BLOCK <= n && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** How many trailing characters the two texts share, at most `limit`. */
function commonSuffix(a: string, b: string, limit: number): number {
  let i = 0
  while (i + BLOCK <= limit && a.slice(a.length - i - BLOCK, a.length - i) === b.slice(b.length - i - BLOCK, b.length - i)) i += BLOCK
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++
  return i
}

/** The start of the line that holds position `at`. */
function lineStart(text: string, at: number): number {
  return at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1
}

/** Position `at` if a line starts there, else the start of the next line. */
function lineAfter(text: string, at: number): number {
  if (at === 0 || text.charCodeAt(at - 1) === 10) return at
  const end = text.indexOf('\n', at)
  return end < 0 ? text.length : end + 1
}

/** The key of the last entry line before `end`. */
function lastKey(text: string, end: number): string | undefined {
  for (let stop = end - 1; stop > 0; ) {
    const start = text.lastIndexOf('\n', stop - 1) + 1
    const line = text.slice(start, stop)
    if (line.trim() !== '' && !line.startsWith('#')) return keyOf(line)
    stop = start - 1
  }
  return undefined
}

/** The key of the first entry line from `start`. */
function firstKey(text: string, start: number): string | undefined {
  for (let from = start; from < text.length; ) {
    const end = text.indexOf('\n', from)
    const line = text.slice(from, end < 0 ? text.length : end)
    if (line.trim() !== '' && !line.startsWith('#')) return keyOf(line)
    from = end < 0 ? text.length : end + 1
  }
  return undefined
}

function keyOf(line: string): string {
  const space = line.indexOf(' ')
  return space < 0 ? line : line.slice(0, space)
}

/** One runtime step on one map. */
export type MapStep = { map: string; op: 'add' | 'set'; entries: MapEntry[] } | { map: string; op: 'del'; keys: string[] } | { map: string; op: 'swap' }

/**
 * The order of the steps, so that a request whose route exists before and after the change
 * always finds one: every entry added or set before any is deleted (between the two, a map holds
 * the old and the new keys, and a key's value is the old or the new one), and the paths of a
 * host before the host itself (hosts.map picks the virtual host, the other maps its paths):
 *
 * 1. the path maps' adds and sets (exact, prefix, redirect, default), entry by entry;
 * 2. hosts.map: its adds and sets, or its swap — a new host finds its paths in place, and a host
 *    that now shadows a wildcard (`*.example.com`) takes over only once its own paths are there;
 * 3. hosts.map: its deletions — a host that goes falls back to its wildcard while its paths are still there;
 * 4. the path maps' deletions, then the path maps swapped whole.
 *
 * A swapped path map changes at once, at step 4: a change that large may, for the few
 * milliseconds between steps 2 and 4, leave a new host that shadows a wildcard without the
 * paths that map gives it.
 */
export function mapSteps(updates: readonly MapUpdate[]): MapStep[] {
  const hosts = updates.filter((update) => update.map === FILES.hostsMap)
  const paths = updates.filter((update) => update.map !== FILES.hostsMap)
  const upserts = (update: MapUpdate): MapStep[] => [
    ...(update.add.length ? [{ map: update.map, op: 'add' as const, entries: update.add }] : []),
    ...(update.set.length ? [{ map: update.map, op: 'set' as const, entries: update.set }] : []),
  ]
  const deletions = (update: MapUpdate): MapStep[] => (update.del.length ? [{ map: update.map, op: 'del', keys: update.del }] : [])
  const entryWise = (update: MapUpdate) => update.how === 'entries'
  return [
    ...paths.filter(entryWise).flatMap(upserts),
    ...hosts.flatMap((update) => (entryWise(update) ? upserts(update) : [{ map: update.map, op: 'swap' as const }])),
    ...hosts.filter(entryWise).flatMap(deletions),
    ...paths.filter(entryWise).flatMap(deletions),
    ...paths.filter((update) => !entryWise(update)).map((update) => ({ map: update.map, op: 'swap' as const })),
  ]
}
