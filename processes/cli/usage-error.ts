/** Wrong words on the command line: printed with the command's name and usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
