import { link, readFile, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { tempPathFor } from '../../adapters/storage/disk-paths.ts'
import { syncDirectory, writeDurably } from '../../adapters/storage/durable-file.ts'

/**
 * A secret kept in a file of the data directory: its first line, or, when the file does not
 * exist and `make` is given, a new one written readable by its owner only. Two processes
 * starting at once agree on one: the secret is written whole under a temp name and linked into
 * place, which fails for the loser, who reads the winner's; a reader never sees a file without
 * its secret. The file is flushed before it is linked and the directory after, so a crash
 * leaves the whole secret or no file, never an empty one. Undefined when the file does not
 * exist and nothing may be made.
 */
export async function keptSecret(path: string, make?: () => string): Promise<{ value: string; created: boolean } | undefined> {
  for (;;) {
    const kept = await readKept(path)
    if (kept !== undefined) return { value: kept, created: false }
    if (!make) return undefined
    const value = make()
    const temp = tempPathFor(path)
    try {
      await writeDurably(temp, `${value}\n`, 0o600)
      await link(temp, path)
      await syncDirectory(dirname(path))
      return { value, created: true }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      await rm(temp, { force: true })
    }
  }
}

/** The secret in the file, or undefined when there is no file; an empty one is refused rather than taken as the secret. */
async function readKept(path: string): Promise<string | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const value = text.trim()
  if (!value) throw new Error(`${path} is empty: write the secret in it, or remove it to have a new one made`)
  return value
}
