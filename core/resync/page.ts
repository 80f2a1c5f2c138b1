import { differs, listedReads, listing, storedAt, type ListedState, type StoredTexts } from '../ingest/listed-state.ts'
import type { ClusterOptions } from '../model/settings.ts'
import type { HashText } from '../hash.ts'
import { loadRanges } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { runLoadingInSlices } from '../reading/run-loading.ts'
import { runInSlices, type Pause } from '../slices.ts'
import type { Tree } from '../tree/tree.ts'

/** A page's listed object keys (`Kind/ns/name`), sorted: what the finish keeps when it deletes what no page listed. */
export interface PageKeys {
  keys: string[]
}

/**
 * An item a page listed whose object differed from the snapshot when the page came, with a
 * digest of what its key held then: the finish applies it only if that is still what it holds,
 * so a write that came between the page and the finish (newer than the list) is not undone.
 */
export interface StagedItem {
  key: string
  item: Record<string, unknown>
  stored: string
}

export interface PageItems {
  items: StagedItem[]
}

export interface StagedPage {
  keys: PageKeys
  items: PageItems
}

/** The digest of what a snapshot holds at one key, as a staged item records it. */
export const storedDigest = (texts: StoredTexts, hash: HashText) => hash(JSON.stringify([texts.object, texts.invalid, texts.version]))

/** The point ranges of the snapshot keys `keys` names, for loadRanges: a level per round, whatever the page's order. */
export const pointRanges = (keys: readonly string[]) => keys.map((key) => [key, `${key}\u0000`] as const)

/**
 * A page as it is staged: its listed keys, and only its items that differ from the snapshot
 * (compared by point lookups, loaded a tree level per round). A cluster with no snapshot yet
 * differs everywhere.
 */
export async function stagePage(
  snapshot: Tree | undefined,
  items: readonly Record<string, unknown>[],
  options: Partial<ClusterOptions>,
  loader: NodeLoader,
  hash: HashText,
  pause?: Pause,
): Promise<StagedPage> {
  // In slices (see runInSlices): a page of 1,000 items takes a tenth of a second to read and compare.
  const listed = await runInSlices(listing(items, options), pause)
  if (snapshot) await loadRanges(snapshot, pointRanges(listedReads(listed)), loader)
  // Loaded already; a node the cache evicted meanwhile is loaded again by a rerun.
  const staged = await runLoadingInSlices(() => stagedItems(snapshot, listed, hash), loader, pause)
  return { keys: { keys: listed.map((state) => state.key) }, items: { items: staged } }
}

/** The listed states that differ from the snapshot, as staged items, a step per item. */
function* stagedItems(snapshot: Tree | undefined, listed: readonly ListedState[], hash: HashText): Generator<void, StagedItem[]> {
  const staged: StagedItem[] = []
  for (const state of listed) {
    if (differs(snapshot, state)) staged.push({ key: state.key, item: state.item, stored: storedDigest(storedAt(snapshot, state.key), hash) })
    yield
  }
  return staged
}
