import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'

/** Every regular file under `dir`, keyed by its path relative to `dir`. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(relative(dir, path), await readFile(path))
  }
  return files
}

/** The tree as UTF-8 text, for searching and for readable diffs. */
export async function readTextTree(dir: string): Promise<Map<string, string>> {
  return new Map([...(await readTree(dir))].map(([path, bytes]) => [path, bytes.toString('utf8')]))
}
