import { stat } from 'node:fs/promises'
import { CommandError } from './command-error.ts'

/**
 * Refuses to go on unless `path` (a flag's value) is a directory: a CommandError with `missing`
 * when nothing is there, rather than a command that creates a mistyped path or fails later
 * with ENOENT and a stack.
 */
export async function requireDirectory(flag: string, path: string, missing: string): Promise<void> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw new CommandError(`${flag} ${path}: ${error.message}`)
  })
  if (!found) throw new CommandError(missing)
  if (!found.isDirectory()) throw new CommandError(`${flag} ${path} is not a directory`)
}
