import { ChunkedFile, textChunk } from '../chunks/chunked-file.ts'
import { CHUNKED_FILES, type Layout } from '../render/files.ts'
import type { GenerationFiles } from './manifest.ts'

/** The full-rebuild path from a layout to chunks: large files cut at key boundaries, small ones whole. */
export function cutLayout(layout: Layout): GenerationFiles {
  const files: GenerationFiles = new Map()
  for (const [path, content] of layout) {
    if (typeof content === 'string') files.set(path, [textChunk(content)])
    else files.set(path, ChunkedFile.fromSorted(CHUNKED_FILES.get(path) ?? 32, content).chunkList)
  }
  return files
}

export function joinChunks(chunks: readonly { text: string }[]): string {
  let text = ''
  for (const chunk of chunks) text += chunk.text
  return text
}
