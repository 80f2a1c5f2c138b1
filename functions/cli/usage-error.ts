import { parseArgs, type ParseArgsConfig } from 'node:util'

/** Wrong words on the command line: printed with the command's name, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** `node:util` parseArgs, with its errors turned into UsageErrors. */
export function parseOptions<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}
