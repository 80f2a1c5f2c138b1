import { CHUNKED_FILES, FILES, PORT_CRT_LIST } from '../render/files.ts'
import type { TreeEntry } from '../tree/node.ts'
import { BRANCH_TARGET, type LeafCodec, type TreeShape } from '../tree/tree-shape.ts'

/** Chunks per chunk-list node: one changed chunk rewrites one list of ~24 refs per level (narrowly cut), not one as long as the file. */
export const CHUNKS_PER_LIST = BRANCH_TARGET

/** Files of lines keyed by their first word: map files (`key value`) and the crt-list (`path sni…`). */
export const lineCodec: LeafCodec = {
  encode: joinEntries,
  decode(text) {
    const entries: TreeEntry[] = []
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf('\n', start) + 1 || text.length
      const line = text.slice(start, end)
      entries.push({ key: line.slice(0, firstOf(line, ' ', '\n')), value: line })
      start = end
    }
    return entries
  },
}

/** Files of `backend NAME` sections, each keyed by its name. */
export const sectionCodec: LeafCodec = {
  encode: joinEntries,
  decode(text) {
    const entries: TreeEntry[] = []
    for (const section of text.split(/^(?=backend )/m)) {
      if (section === '') continue
      entries.push({ key: section.slice('backend '.length, firstOf(section, '\n')), value: section })
    }
    return entries
  },
}

const shapes = new Map<string, TreeShape>(
  [...CHUNKED_FILES].map(([path, perChunk]) => [
    path,
    {
      space: 'blobs',
      codec: path === FILES.backends ? sectionCodec : lineCodec,
      leafTarget: perChunk,
      leafSpread: 'narrow',
      branchTarget: CHUNKS_PER_LIST,
      branchSpread: 'narrow',
    },
  ]),
)

/** How a large file is cut into chunks (its tree's leaves, stored as plain content); undefined for a small file, stored whole. */
export function fileShape(path: string): TreeShape | undefined {
  return shapes.get(path) ?? (PORT_CRT_LIST.test(path) ? shapes.get(FILES.crtList) : undefined)
}

/** Whether a file is written even when it has no entries (HAProxy loads maps by path); the crt-lists are not (a port's is not in `shapes`). */
export function keptWhenEmpty(path: string): boolean {
  return shapes.has(path) && path !== FILES.crtList
}

/** One flat string: appending would make a rope of a node per entry, copied flat again when the leaf is weighed and hashed. */
function joinEntries(entries: readonly TreeEntry[]): string {
  return entries.map((entry) => entry.value).join('')
}

function firstOf(text: string, ...marks: string[]): number {
  let first = text.length
  for (const mark of marks) {
    const at = text.indexOf(mark)
    if (at >= 0 && at < first) first = at
  }
  return first
}
