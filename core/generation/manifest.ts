import { sha256Hex, toBytes } from '../hash.ts'
import type { Chunk } from '../chunks/chunked-file.ts'
import { compareText } from '../model/routes.ts'
import { CHUNKED_FILES } from '../render/files.ts'

/** A generation's files, each as its chunks (a small file is one chunk). */
export type GenerationFiles = Map<string, readonly Chunk[]>

export interface BlobRef {
  sha256: string
  size: number
}

/** A small file is one blob; a chunked file is the concatenation of its chunks, each a blob. */
export type ManifestFile = BlobRef | { size: number; chunks: BlobRef[] }

/** Names a whole generation: every file with the content hashes of its blobs. */
export interface Manifest {
  version: 1
  files: Record<string, ManifestFile>
}

const blobs = new WeakMap<Chunk, Promise<BlobRef>>()

/** Chunks are immutable, so a chunk's hash is computed once, however many generations it lives in. */
export function blobOf(chunk: Chunk): Promise<BlobRef> {
  let blob = blobs.get(chunk)
  if (!blob) {
    blob = sha256Hex(chunk.text).then((sha256) => ({ sha256, size: toBytes(chunk.text).byteLength }))
    blobs.set(chunk, blob)
  }
  return blob
}

export async function buildManifest(files: GenerationFiles): Promise<Manifest> {
  const paths = [...files.keys()].sort(compareText)
  const entries = await Promise.all(
    paths.map(async (path): Promise<[string, ManifestFile]> => {
      const refs = await Promise.all(files.get(path)!.map(blobOf))
      if (!CHUNKED_FILES.has(path)) return [path, refs[0] ?? (await blobOf({ entries: [], text: '' }))]
      return [path, { size: refs.reduce((sum, ref) => sum + ref.size, 0), chunks: refs }]
    }),
  )
  return { version: 1, files: Object.fromEntries(entries) }
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 1)}\n`
}

/** Every blob hash a manifest references. */
export function manifestBlobs(manifest: Manifest): Set<string> {
  const hashes = new Set<string>()
  for (const file of Object.values(manifest.files)) {
    if ('chunks' in file) for (const chunk of file.chunks) hashes.add(chunk.sha256)
    else hashes.add(file.sha256)
  }
  return hashes
}
