import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Every file under `dir`, keyed by its path relative to `dir`, through symbolic links: the
 * agent's generations link the subdirectories they share with the one before.
 */
export async function readTree(dir: string, prefix = ''): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>()
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    const key = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    const kind = entry.isSymbolicLink() ? await stat(path) : entry
    if (kind.isDirectory()) for (const [inner, bytes] of await readTree(path, key)) files.set(inner, bytes)
    else if (kind.isFile()) files.set(key, await readFile(path))
  }
  return files
}

/** The tree as UTF-8 text, for searching and for readable diffs. */
export async function readTextTree(dir: string): Promise<Map<string, string>> {
  return new Map([...(await readTree(dir))].map(([path, bytes]) => [path, bytes.toString('utf8')]))
}
