import { sha256Hex, toBytes } from '../hash.ts'
import { compareText } from '../model/routes.ts'
import type { RenderedFiles } from './files.ts'

export interface ManifestEntry {
  sha256: string
  size: number
}

/** Names a whole generation: every file with its content hash and size. */
export interface Manifest {
  version: 1
  files: Record<string, ManifestEntry>
}

export async function buildManifest(files: RenderedFiles): Promise<Manifest> {
  const entries = await Promise.all(
    [...files].map(async ([path, content]) => [path, { sha256: await sha256Hex(content), size: toBytes(content).byteLength }] as const),
  )
  entries.sort(([a], [b]) => compareText(a, b))
  return { version: 1, files: Object.fromEntries(entries) }
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`
}
