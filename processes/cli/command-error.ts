/**
 * A command cannot do what it was asked for a reason outside its words: a port taken, a
 * directory missing, a server out of reach, input that cannot be read. The message says what,
 * where and what to do; `hapedge` prints it after the command's name, without a stack, and
 * exits 1 (2 is for wrong words: UsageError).
 */
export class CommandError extends Error {
  override readonly name: string = 'CommandError'
}
