import { compareText } from '../model/routes.ts'
import { isBoundary } from './boundary.ts'

export interface Entry {
  key: string
  text: string
}

/** An immutable run of entries; a changed chunk is a new object, so identity tells what changed. */
export interface Chunk {
  readonly entries: readonly Entry[]
  readonly text: string
}

export function makeChunk(entries: readonly Entry[]): Chunk {
  let text = ''
  for (const entry of entries) text += entry.text
  return { entries, text }
}

/** A small file is one chunk without entries. */
export function textChunk(text: string): Chunk {
  return { entries: [], text }
}

/**
 * A large file kept as sorted entries cut into chunks at key-determined boundaries
 * (see boundary.ts). Setting or deleting one key rebuilds only the chunk that holds it (and,
 * when the key is itself a boundary, the neighbour it splits from or merges with), so a
 * one-line change costs one chunk at any file size.
 */
export class ChunkedFile {
  private chunks: Chunk[] = []
  private snapshot: readonly Chunk[] | undefined

  constructor(readonly perChunk: number) {}

  /** The full-rebuild path: cut already-sorted entries in one pass. */
  static fromSorted(perChunk: number, entries: Iterable<Entry>): ChunkedFile {
    const file = new ChunkedFile(perChunk)
    let run: Entry[] = []
    for (const entry of entries) {
      run.push(entry)
      if (isBoundary(entry.key, perChunk)) {
        file.chunks.push(makeChunk(run))
        run = []
      }
    }
    if (run.length) file.chunks.push(makeChunk(run))
    return file
  }

  /** The chunks as they are now; a list handed out stays as it was (one copy per change, not per edit). */
  get chunkList(): readonly Chunk[] {
    return (this.snapshot ??= this.chunks.slice())
  }

  get text(): string {
    return this.chunks.map((chunk) => chunk.text).join('')
  }

  /**
   * Sets `key` to `text`, or removes it when `text` is undefined; says whether anything changed.
   * Only the key's own boundary can move: a new boundary key splits its chunk after itself, a
   * removed one merges its chunk with the next.
   */
  set(key: string, text: string | undefined): boolean {
    const index = this.chunkIndexFor(key)
    const chunk = this.chunks[index]
    if (!chunk) {
      if (text === undefined) return false
      this.splice(index, 0, [{ key, text }])
      return true
    }
    const at = lowerBound(chunk.entries, key)
    const present = chunk.entries[at]?.key === key
    if (text === undefined ? !present : present && chunk.entries[at]!.text === text) return false
    const entries = [...chunk.entries]
    if (present && text !== undefined) {
      entries[at] = { key, text }
      this.splice(index, 1, entries)
    } else if (text === undefined) {
      entries.splice(at, 1)
      const next = this.chunks[index + 1]
      if (next && isBoundary(key, this.perChunk)) this.splice(index, 2, [...entries, ...next.entries])
      else this.splice(index, 1, entries)
    } else if (at === entries.length && isBoundary(entries[at - 1]!.key, this.perChunk)) {
      this.splice(index + 1, 0, [{ key, text }])
    } else {
      entries.splice(at, 0, { key, text })
      const splits = isBoundary(key, this.perChunk) && at < entries.length - 1
      this.splice(index, 1, ...(splits ? [entries.slice(0, at + 1), entries.slice(at + 1)] : [entries]))
    }
    return true
  }

  /** Replaces `count` chunks at `index` with chunks of the given runs (an empty run makes none). */
  private splice(index: number, count: number, ...runs: Entry[][]): void {
    this.chunks.splice(index, count, ...runs.filter((run) => run.length > 0).map(makeChunk))
    this.snapshot = undefined
  }

  get size(): number {
    return this.chunks.length
  }

  /** The chunk whose key range holds `key`: the first whose last key is ≥ key, else the last chunk. */
  private chunkIndexFor(key: string): number {
    let low = 0
    let high = this.chunks.length - 1
    if (high < 0) return 0
    while (low < high) {
      const mid = (low + high) >>> 1
      const entries = this.chunks[mid]!.entries
      if (compareText(entries[entries.length - 1]!.key, key) >= 0) high = mid
      else low = mid + 1
    }
    return low
  }
}

function lowerBound(entries: readonly Entry[], key: string): number {
  let low = 0
  let high = entries.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (compareText(entries[mid]!.key, key) < 0) low = mid + 1
    else high = mid
  }
  return low
}
