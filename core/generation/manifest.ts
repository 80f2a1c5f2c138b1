import { sha256Hex, toBytes, type Sha256 } from '../hash.ts'
import type { Chunk } from '../chunks/chunked-file.ts'

/** A generation's files, each as its chunks (a small file is one chunk). */
export type GenerationFiles = Map<string, readonly Chunk[]>

export interface BlobRef {
  sha256: string
  size: number
}

/** A blob's content with its address: what a commit writes and a reader verifies. */
export interface Blob extends BlobRef {
  text: string
}

/**
 * One file of a generation. A small file is one blob; a chunked file is the concatenation of
 * its chunks, listed in chunk-list blobs (JSON arrays of BlobRefs), so that one changed chunk
 * rewrites one list, not a list as long as the file.
 */
export type FileEntry = { path: string } & (BlobRef | { size: number; lists: BlobRef[] })

/**
 * The root of a generation: its file entries live in pages (JSON lines, sorted by path, cut at
 * path-determined boundaries), so the root stays a few KiB for thousands of files and a change
 * to one file rewrites one page. The root's own hash names the generation.
 */
export interface Manifest {
  version: 1
  files: number
  size: number
  pages: BlobRef[]
}

export async function toBlob(text: string, sha256: Sha256 = sha256Hex): Promise<Blob> {
  return { sha256: await sha256(text), size: toBytes(text).byteLength, text }
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest)}\n`
}
