import type { RenderedFiles } from '../../../core/render/files.ts'
import { nodeSha256 } from '../hash/node-sha256.ts'

/**
 * `manifest.json` beside a rendered directory: each file's sha256 and size as `sha256sum`
 * computes them, and the generation's content address (the manifest hash the storage protocol uses).
 */
export interface RenderManifest {
  version: 1
  generation: string
  files: Record<string, { sha256: string; size: number }>
}

export function renderManifest(files: RenderedFiles, generation: string): RenderManifest {
  const entries: [string, { sha256: string; size: number }][] = []
  for (const [path, text] of files) entries.push([path, { sha256: nodeSha256(text), size: Buffer.byteLength(text) }])
  return { version: 1, generation, files: Object.fromEntries(entries) }
}
