import type { LineChange } from '../plan/map-updates.ts'
import type { TreeRoot } from '../tree/node.ts'
import { utf8Length } from '../tree/tree-shape.ts'

/** A part of a spliced map: a range of the text before, kept, or a line put in. */
export type SplicePart = { readonly from: number; readonly to: number } | string

/**
 * How a map file's next text is made of its text before and the lines that changed between
 * the two chunk trees (sorted by key, as diffTrees gives them): the ranges of the text before
 * kept and the lines put in, in order, which splicedText joins and splicedBytes encodes; instead
 * of the text made from every chunk of the next tree. At 20,000 Ingresses a map is ~2,000
 * chunks and megabytes: joining them costs the agent milliseconds on the path to served, and an
 * agent that has just started would first fetch them all; the change is a few lines.
 *
 * The text before holds one line per key, sorted by key (the file is its tree's leaves in
 * order), so each changed key is found by a binary search. Undefined, for the caller to read
 * the file whole, when anything disagrees: the text before is not `before`'s size, a line
 * removed or changed is not there as it was, a line added is there already, or the result is
 * not the size and line count of `after`.
 */
export function mapSplice(text: string, changes: readonly LineChange[], before: TreeRoot, after: TreeRoot): SplicePart[] | undefined {
  if (text.length !== before.weight && utf8Length(text) !== before.weight) return undefined
  const parts: SplicePart[] = []
  let copied = 0
  let weight = before.weight
  let count = before.count
  for (const { key, before: was, after: is } of changes) {
    const at = lineOf(text, key, copied)
    const found = at < text.length && keyAt(text, at) === key
    if (found !== (was !== undefined)) return undefined
    let end = at
    if (was !== undefined) {
      end = at + was.length
      if (text.slice(at, end) !== was) return undefined
      weight -= utf8Length(was)
      count--
    }
    if (at > copied) parts.push({ from: copied, to: at })
    if (is !== undefined) {
      parts.push(is)
      weight += utf8Length(is)
      count++
    }
    copied = end
  }
  if (weight !== after.weight || count !== after.count) return undefined
  if (copied < text.length) parts.push({ from: copied, to: text.length })
  return parts
}

/** The text the parts make of `text`. Joined by `+`: the engine keeps the pieces until the text is read whole, so the splice copies nothing. */
export function splicedText(text: string, parts: readonly SplicePart[]): string {
  let spliced = ''
  for (const part of parts) spliced += typeof part === 'string' ? part : text.slice(part.from, part.to)
  return spliced
}

/**
 * The UTF-8 of the text the parts make of `text`, from `bytes`, the UTF-8 of `text`: the ranges
 * kept copied, only the lines put in encoded. Undefined unless every character of `text` is one
 * byte (ASCII, as host and path keys are), where its offsets are the bytes'. `into` gives the
 * memory to write them to, at least as long as asked (they are its start); by default, new.
 */
export function splicedBytes(
  text: string,
  bytes: Uint8Array,
  parts: readonly SplicePart[],
  into: (length: number) => Uint8Array = (length) => new Uint8Array(length),
): Uint8Array | undefined {
  if (bytes.length !== text.length) return undefined
  const pieces = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : bytes.subarray(part.from, part.to)))
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0)
  const spliced = into(length).subarray(0, length)
  let at = 0
  for (const piece of pieces) {
    spliced.set(piece, at)
    at += piece.length
  }
  return spliced
}

const encoder = new TextEncoder()

/** The start of the first line at or after `from` (a line's start) whose key is not below `key`; the text's end if none. */
function lineOf(text: string, key: string, from: number): number {
  let low = from
  let high = text.length
  while (low < high) {
    const middle = low + ((high - low) >> 1)
    // The start of the line that holds `middle`: not before `low`, itself a line's start.
    const start = middle === low ? low : text.lastIndexOf('\n', middle - 1) + 1
    if (keyAt(text, start) < key) {
      const end = text.indexOf('\n', start)
      low = end < 0 ? text.length : end + 1
    } else high = start
  }
  return low
}

/** The key of the line starting at `at`: its first word, as the map's chunk trees key it (lineCodec). */
function keyAt(text: string, at: number): string {
  let end = at
  for (let code = text.charCodeAt(end); end < text.length && code !== 32 && code !== 10; code = text.charCodeAt(++end));
  return text.slice(at, end)
}
