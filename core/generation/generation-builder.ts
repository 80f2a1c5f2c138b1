import { ChunkedFile, type Chunk } from '../chunks/chunked-file.ts'
import { sha256Hex, type Sha256 } from '../hash.ts'
import { CHUNKED_FILES } from '../render/files.ts'
import { serializeManifest, toBlob, type Blob, type BlobRef, type FileEntry, type Manifest } from './manifest.ts'

export const CHUNKS_PER_LIST = 64
export const FILES_PER_PAGE = 32

/** New file content (chunks, small files), and new metadata (chunk lists, manifest pages, the root). */
export interface Created {
  content: Blob[]
  metadata: Blob[]
}

export interface Generation {
  manifest: Manifest
  /** The serialized root; its sha256 names the generation. */
  root: Blob
  /** The blobs made for this generation that its parent did not have: what a commit writes. */
  created: Created
}

interface FileState {
  chunks: readonly Chunk[]
  entry: FileEntry
  /** For a chunked file: its chunk refs as JSON lines keyed by each chunk's last key, cut into lists. */
  refs?: ChunkedFile
}

/**
 * Turns files into content-addressed blobs, generation after generation, at the cost of what
 * changed: only files named as changed are looked at, inside them only chunks that are new
 * objects are hashed, and the chunk lists and manifest pages are themselves chunked files keyed
 * the same way (chunk lists by each chunk's last key, pages by path), so one change rewrites
 * one list and one page, and the root stays a few hundred bytes.
 */
export class GenerationBuilder {
  private readonly blobs = new WeakMap<Chunk, Blob>()
  private readonly files = new Map<string, FileState>()
  private readonly pages = new ChunkedFile(FILES_PER_PAGE)
  private totalSize = 0
  private built = false

  constructor(private readonly sha256: Sha256 = sha256Hex) {}

  /** `changed` names the files that may differ from the previous call; without it every file is looked at. */
  async build(files: ReadonlyMap<string, readonly Chunk[]>, changed?: Iterable<string>): Promise<Generation> {
    const created: Created = { content: [], metadata: [] }
    const paths = changed && this.built ? new Set(changed) : new Set([...files.keys(), ...this.files.keys()])
    for (const path of paths) {
      const before = this.files.get(path)
      const chunks = files.get(path)
      if (before?.chunks === chunks) continue
      if (before) this.totalSize -= before.entry.size
      if (!chunks) {
        this.files.delete(path)
        this.pages.set(path, undefined)
        continue
      }
      const after = await this.fileState(path, chunks, before, created)
      this.files.set(path, after)
      this.totalSize += after.entry.size
      this.pages.set(path, `${JSON.stringify(after.entry)}\n`)
    }
    const pages = await this.refsOf(this.pages.chunkList, created.metadata)
    const manifest: Manifest = { version: 1, files: this.files.size, size: this.totalSize, pages }
    const root = await toBlob(serializeManifest(manifest), this.sha256)
    created.metadata.push(root)
    this.built = true
    return { manifest, root, created }
  }

  private async fileState(path: string, chunks: readonly Chunk[], before: FileState | undefined, created: Created): Promise<FileState> {
    const perChunk = CHUNKED_FILES.get(path)
    if (perChunk === undefined) {
      const [blob] = await this.refsOf(chunks, created.content)
      return { chunks, entry: { path, ...blob! } }
    }
    const refs = before?.refs ?? new ChunkedFile(perChunk * CHUNKS_PER_LIST)
    const { removed, added } = chunkDiff(before?.chunks ?? [], chunks)
    for (const chunk of removed) refs.set(lastKey(chunk), undefined)
    const addedRefs = await this.refsOf(added, created.content)
    added.forEach((chunk, i) => refs.set(lastKey(chunk), `${JSON.stringify(addedRefs[i])}\n`))
    let size = before && 'lists' in before.entry ? before.entry.size : 0
    for (const chunk of removed) size -= this.blobs.get(chunk)!.size
    for (const ref of addedRefs) size += ref.size
    return { chunks, refs, entry: { path, size, lists: await this.refsOf(refs.chunkList, created.metadata) } }
  }

  /** Each chunk's address; a chunk is immutable, so it is hashed once and `created` gets it the first time. */
  private async refsOf(chunks: readonly Chunk[], created: Blob[]): Promise<BlobRef[]> {
    const unhashed = [...new Set(chunks.filter((chunk) => !this.blobs.has(chunk)))]
    const blobs = await Promise.all(unhashed.map((chunk) => toBlob(chunk.text, this.sha256)))
    unhashed.forEach((chunk, i) => this.blobs.set(chunk, blobs[i]!))
    created.push(...blobs)
    return chunks.map((chunk) => {
      const { sha256, size } = this.blobs.get(chunk)!
      return { sha256, size }
    })
  }
}

const lastKey = (chunk: Chunk) => chunk.entries[chunk.entries.length - 1]?.key ?? ''

/** The chunks only in `before` and only in `after`, found by identity around the common prefix and suffix. */
function chunkDiff(before: readonly Chunk[], after: readonly Chunk[]): { removed: Chunk[]; added: Chunk[] } {
  let prefix = 0
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++
  return { removed: before.slice(prefix, before.length - suffix), added: after.slice(prefix, after.length - suffix) }
}
