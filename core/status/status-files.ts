import type { TreeRoot } from '../tree/node.ts'
import type { Tree } from '../tree/tree.ts'
import type { StatusFile } from '../kube/haproxycfg.ts'

/**
 * A generation's files as its manifest tree names them, without reading their content: a file
 * stored whole is named by its content's sha256; a chunked file (a large map) by the root of its
 * chunk tree, which binds every chunk just as strongly. Reads the manifest's nodes only (a few
 * for dozens of files); a cold tree throws MissingNodes, so call it under `runLoading`.
 */
export function statusFiles(manifest: Tree): StatusFile[] {
  const files: StatusFile[] = []
  for (const { key: path, value } of manifest.scan()) {
    const root = JSON.parse(value) as TreeRoot
    files.push({ path, sha256: root.sha256, size: root.weight, chunked: root.level > 0 })
  }
  return files
}
