import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { buildGeneration } from '../../../core/generation/generation.ts'
import { flattenLayout, type Layout } from '../../../core/render/files.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { nodeSha256 } from '../hash/node-sha256.ts'
import { insideDir } from './inside-dir.ts'
import { renderManifest, type RenderManifest } from './render-manifest.ts'

export const MANIFEST_FILE = 'manifest.json'

/**
 * Writes a rendered generation into `dir`: each file through a temporary name and a rename, so
 * HAProxy never reads half a file, then the manifest; files that the previous manifest listed
 * and this one does not are removed, so a stale `.cfg` is never loaded.
 */
export async function writeRendered(dir: string, layout: Layout): Promise<RenderManifest> {
  const files = flattenLayout(layout)
  const generation = buildGeneration(layout, { nodes: new NodeCache(), hash: nodeSha256 })
  const manifest = renderManifest(files, generation.record.sha256)
  const previous = await readManifest(dir)
  for (const [path, text] of files) await writeAtomically(insideDir(dir, path), text)
  for (const path of Object.keys(previous?.files ?? {})) if (!files.has(path)) await rm(insideDir(dir, path), { force: true })
  await writeAtomically(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

async function readManifest(dir: string): Promise<RenderManifest | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as RenderManifest
  } catch {
    return undefined
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, content)
  await rename(temporary, path)
}
