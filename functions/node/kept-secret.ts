import { readFile, writeFile } from 'node:fs/promises'

/**
 * A secret kept in a file of the data directory: its first line, or, when the file does not
 * exist and `make` is given, a new one written readable by its owner only. Two processes
 * starting at once agree on one: the loser of the exclusive create reads the winner's.
 * Undefined when the file does not exist and nothing may be made.
 */
export async function keptSecret(path: string, make?: () => string): Promise<{ value: string; created: boolean } | undefined> {
  for (;;) {
    try {
      return { value: (await readFile(path, 'utf8')).trim(), created: false }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    if (!make) return undefined
    const value = make()
    try {
      await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' })
      return { value, created: true }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}
