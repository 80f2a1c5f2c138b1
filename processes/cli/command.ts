import { parseFlags, type FlagTable, type FlagValues } from './flags.ts'

export interface CommandDefinition<T extends FlagTable> {
  readonly flags: T
  /** One invocation that works, shown in help; leading `NAME=value` words set the environment. A test parses it. */
  readonly example: string
  /** The environment variables it reads beside its flags' own, each with what it is for. */
  readonly environment?: Readonly<Record<string, string>>
  run(values: FlagValues<T>): Promise<number>
}

/**
 * A command as `hapedge` runs it: called with its words, it reads them against its flag table
 * (a UsageError names everything wrong at once) and runs; its table, example and environment
 * make its help (`help.ts`).
 */
export interface Command<T extends FlagTable = FlagTable> {
  (args: readonly string[]): Promise<number>
  readonly flags: T
  readonly example: string
  readonly environment: Readonly<Record<string, string>>
}

export function defineCommand<T extends FlagTable>({ run, flags, example, environment = {} }: CommandDefinition<T>): Command<T> {
  return Object.assign((args: readonly string[]) => run(parseFlags(flags, args)), { flags, example, environment })
}
