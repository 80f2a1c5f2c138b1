import { resyncVersion, type ResyncEvent } from '../incremental/resource-version.ts'
import { changedRef, objectChange } from '../incremental/watch-event.ts'
import { objectKey, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import { storedForm, type InvalidObject } from '../model/cluster-state.ts'
import { DEFAULT_OPTIONS, type ClusterOptions } from '../model/settings.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'
import { runToEnd } from '../slices.ts'

/** The per-object tables a resync sets: the object (valid or not) and the version last applied to it. */
export const OBJECT_TABLES = [TABLE.object, TABLE.invalid, TABLE.resourceVersion] as const

/** What a snapshot holds at one object's key: the texts of its three per-object tables (undefined: none). */
export interface StoredTexts {
  object?: string
  invalid?: string
  version?: string
}

/** What a resync leaves stored at one listed object's key (`Kind/ns/name`), and the last item listed there. */
export interface ListedState extends StoredTexts {
  key: string
  item: Record<string, unknown>
}

/** A listed item as the event a resync applies. */
export const resyncEvent = (item: Record<string, unknown>): ResyncEvent => ({ type: 'MODIFIED', object: item, resync: true })

/**
 * For each object a list names what a resync leaves at its key, in key order: the texts the snapshot's `object`, `invalid` and
 * `resource-version` tables would hold. They come from the engine's own rules (what ClusterState
 * stores for a read object, and the version a resync records), so a malformed ConfigMap other than the settings one
 * holds only its version, an item of a kind hapedge reads but a form it does not (a Secret of
 * another type) removes the object and holds its version, a later item of the same key wins. TLS Secrets are taken as
 * valid: the check of their certificate is async and costly, so it runs only on the events a
 * resync emits (a Secret stored as invalid for its certificate always differs, and is judged again).
 */
export function listedStates(items: readonly Record<string, unknown>[], options: Partial<ClusterOptions> = {}): ListedState[] {
  return runToEnd(listing(items, options))
}

/**
 * `listedStates` as steps, one per item (see runInSlices): a list of 40,000 objects takes a second
 * to read. What a key holds after a resync comes from its last item alone (a read object replaces
 * what was there, and a resync's version ignores what was seen), so each item's texts are taken as
 * it is read, with no cluster state: the trimmed objects of a whole list are never held together.
 */
export function* listing(items: readonly Record<string, unknown>[], options: Partial<ClusterOptions> = {}): Generator<void, ListedState[]> {
  const settings = { ...DEFAULT_OPTIONS, ...options }
  const last = new Map<string, ListedState>()
  for (const item of items) {
    const state = listedState(item, settings)
    if (state) last.set(state.key, state)
    yield
  }
  return [...last.values()].sort(byKey)
}

/** What a resync leaves at one item's key, from that item alone (undefined: an item no resync reads). */
function listedState(item: Record<string, unknown>, settings: ClusterOptions): ListedState | undefined {
  const event = resyncEvent(item)
  const change = objectChange(event)
  if ('ignore' in change) return undefined
  // The texts the tables would store (Table.edits writes JSON.stringify of each value); the indexes' entries are not needed.
  const stored = 'remove' in change ? undefined : storedForm(change.put, settings)
  const seen = resyncVersion(event)
  const state: ListedState = { key: objectKey(changedRef(change)), item }
  if (stored) state[isInvalid(stored) ? 'invalid' : 'object'] = JSON.stringify(stored)
  if (seen) state.version = JSON.stringify(seen)
  return state
}

/**
 * A list's states taken as its items are parsed (see parsingJson's `each`), keeping of each item
 * only its text: a listed state's `item` parses it again, which only the items a resync sends
 * need. A whole list of parsed items (and what reading them made) lived through the whole
 * comparison, and the collector copied and marked it again and again: at 20,000 Ingresses, about
 * half the CPU time of a resync that changes nothing.
 */
export class ListReader {
  private readonly settings: ClusterOptions
  private readonly last = new Map<string, ListedState>()

  constructor(options: Partial<ClusterOptions> = {}) {
    this.settings = { ...DEFAULT_OPTIONS, ...options }
  }

  /** Reads one listed item, parsed from `text`. */
  read(item: Record<string, unknown>, text: string): void {
    const state = listedState(item, this.settings)
    if (state) this.last.set(state.key, new ReadState(state, text))
  }

  /** The states of the items read (the last at each key), in key order. */
  states(): ListedState[] {
    return [...this.last.values()].sort(byKey)
  }
}

/** A listed state that keeps its item as the text it was parsed from, and parses it again when asked (a class: one shape, no closure per item). */
class ReadState implements ListedState {
  readonly key: string
  readonly object?: string
  readonly invalid?: string
  readonly version?: string

  constructor(
    { key, object, invalid, version }: ListedState,
    private readonly text: string,
  ) {
    this.key = key
    if (object !== undefined) this.object = object
    if (invalid !== undefined) this.invalid = invalid
    if (version !== undefined) this.version = version
  }

  get item(): Record<string, unknown> {
    return JSON.parse(this.text) as Record<string, unknown>
  }
}

/**
 * The listed objects' keys and last items, in key order, without what they would store: what a
 * list into a cluster with no snapshot needs, where there is nothing to compare with (see
 * fillingEvents). A step per item.
 */
export function* listedItems(items: readonly Record<string, unknown>[]): Generator<void, ListedItem[]> {
  const last = yield* lastPerKey(items)
  return [...last].map(([key, { item }]) => ({ key, item })).sort(byKey)
}

export type ListedItem = Pick<ListedState, 'key' | 'item'>

/** The last item listed at each object key (`Kind/ns/name`), each read as a resync's event once; a step per item. */
function* lastPerKey(items: readonly Record<string, unknown>[]): Generator<void, Map<string, { ref: ObjectRef; item: Record<string, unknown> }>> {
  const last = new Map<string, { ref: ObjectRef; item: Record<string, unknown> }>()
  for (const item of items) {
    const change = objectChange(resyncEvent(item))
    if ('ignore' in change) continue
    const ref = changedRef(change)
    last.set(objectKey(ref), { ref, item })
    yield
  }
  return last
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

const isInvalid = (stored: KubeObject | InvalidObject): stored is InvalidObject => 'issues' in stored

/** Whether the snapshot holds at the listed key other texts than the list leaves (point lookups: throws MissingNodes). */
export function differs(snapshot: Tree | undefined, listed: ListedState): boolean {
  return !sameTexts(storedAt(snapshot, listed.key), listed)
}

/** The snapshot's texts at one object key. */
export function storedAt(snapshot: Tree | undefined, key: string): StoredTexts {
  return storedTexts((table) => snapshot?.get(treeKey(table, key)))
}

export function sameTexts(a: StoredTexts, b: StoredTexts): boolean {
  return a.object === b.object && a.invalid === b.invalid && a.version === b.version
}

/** The snapshot keys `differs` reads, to be loaded together first (see preload). */
export const listedReads = (listed: readonly ListedState[]): string[] => objectReads(listed.map(({ key }) => key))

/** The snapshot keys `storedAt` reads for each object key. */
export function objectReads(keys: readonly string[]): string[] {
  return keys.flatMap((key) => OBJECT_TABLES.map((table) => treeKey(table, key)))
}

function storedTexts(text: (table: (typeof OBJECT_TABLES)[number]) => string | undefined): StoredTexts {
  const texts: StoredTexts = {}
  const object = text(TABLE.object)
  const invalid = text(TABLE.invalid)
  const version = text(TABLE.resourceVersion)
  if (object !== undefined) texts.object = object
  if (invalid !== undefined) texts.invalid = invalid
  if (version !== undefined) texts.version = version
  return texts
}
