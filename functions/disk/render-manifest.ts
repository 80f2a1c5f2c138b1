import { joinChunks } from '../../core/generation/cut-layout.ts'
import type { GenerationFiles } from '../../core/generation/manifest.ts'
import { sha256Hex, toBytes } from '../../core/hash.ts'

/**
 * `manifest.json` beside a rendered directory: each file's sha256 and size as `sha256sum`
 * computes them, and the generation's content address (the root the storage protocol uses).
 */
export interface RenderManifest {
  version: 1
  generation: string
  files: Record<string, { sha256: string; size: number }>
}

export async function renderManifest(files: GenerationFiles, generation: string): Promise<RenderManifest> {
  const entries: [string, { sha256: string; size: number }][] = []
  for (const [path, chunks] of files) {
    const text = joinChunks(chunks)
    entries.push([path, { sha256: await sha256Hex(text), size: toBytes(text).byteLength }])
  }
  return { version: 1, generation, files: Object.fromEntries(entries) }
}
