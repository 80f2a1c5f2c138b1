import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './usage-error.ts'

/**
 * One flag of a command. A command declares its flags once, in a table of these, and both its
 * parser (`parseFlags`) and its help (`help.ts`) are made from that table, so they cannot drift.
 */
export interface Flag {
  /** What the value stands for (`DIR`, `ADDR:PORT`); absent for a switch such as `--once`. */
  readonly value?: string
  readonly description: string
  /** Taken when the flag is absent (and its `env` unset). */
  readonly default?: string
  /** The default as help tells it, when the command works it out (`DIR/stats.sock`, `every cluster`). */
  readonly defaultNote?: string
  /** An environment variable read when the flag is absent: for secrets, which `ps` would show. */
  readonly env?: string
  /** Must be given (or its `env` set); `{ unless: 'once' }`: unless that switch is on. */
  readonly required?: true | { readonly unless: string }
  /** May be given more than once; its value is then every occurrence, in order. */
  readonly repeatable?: true
}

export type FlagTable = Readonly<Record<string, Flag>>

type FlagValue<F extends Flag> = F extends { readonly value: string }
  ? F extends { readonly repeatable: true }
    ? string[]
    : F extends { readonly default: string } | { readonly required: true }
      ? string
      : string | undefined
  : boolean

/** What `parseFlags` answers: each flag by its name, a switch as a boolean, a repeatable flag as a list. */
export type FlagValues<T extends FlagTable> = { -readonly [K in keyof T]: FlagValue<T[K]> }

/** Every command takes `--help` and `-h`, beside its own flags. */
const HELP = { help: { type: 'boolean', short: 'h' } } as const

/** The table as `node:util` parseArgs takes it. */
export function parserOptions(table: FlagTable): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = { ...HELP }
  for (const [name, flag] of Object.entries(table)) options[name] = { type: flag.value ? 'string' : 'boolean', multiple: flag.repeatable === true }
  return options
}

/** Whether `args` ask for help (`--help` or `-h`) rather than a run. */
export function asksForHelp(table: FlagTable, args: readonly string[]): boolean {
  return tokensOf(table, args).some((token) => token.kind === 'option' && token.name === 'help')
}

/**
 * `args` read against `table`, with each absent flag taken from its `env`, else its default.
 * Everything wrong is reported in one UsageError (unknown flags first, then flags without their
 * value and stray arguments, then every required flag missing), so one run shows all there is to fix.
 */
export function parseFlags<T extends FlagTable>(
  table: T,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): FlagValues<T> {
  const unknown: string[] = []
  const wrong: string[] = []
  const given = new Map<string, string[]>()
  const switches = new Set<string>()
  /** Flags given without their value: reported as such, not again as missing. */
  const valueless = new Set<string>()
  let afterUnknown = false
  for (const token of tokensOf(table, args)) {
    const unknownBefore = afterUnknown
    afterUnknown = false
    if (token.kind === 'option-terminator') continue
    if (token.kind === 'positional') {
      // The word after an unknown flag is most likely its value: the unknown flag says it all.
      if (!unknownBefore) wrong.push(`unexpected argument '${token.value}' (every value follows its flag)`)
      continue
    }
    if (token.name === 'help') continue
    const flag = Object.hasOwn(table, token.name) ? table[token.name] : undefined
    if (!flag) {
      unknown.push(`Unknown option '${token.rawName}'`)
      afterUnknown = token.inlineValue === undefined
    } else if (!flag.value) {
      if (token.inlineValue) wrong.push(`--${token.name} takes no value`)
      else switches.add(token.name)
    } else if (!token.value) {
      wrong.push(`--${token.name} needs a value (${flag.value})`)
      valueless.add(token.name)
    } else given.set(token.name, [...(given.get(token.name) ?? []), token.value])
  }

  const values: Record<string, string | string[] | boolean | undefined> = {}
  for (const [name, flag] of Object.entries(table)) {
    if (!flag.value) values[name] = switches.has(name)
    else {
      const fromEnv = flag.env && env[flag.env] ? [env[flag.env]!] : undefined
      const taken = given.get(name) ?? fromEnv
      values[name] = flag.repeatable ? (taken ?? []) : (taken?.at(-1) ?? flag.default)
    }
  }
  const missing = Object.entries(table)
    .filter(([name, { required }]) => required && !isGiven(values[name]) && !valueless.has(name) && (required === true || !values[required.unless]))
    .map(
      ([name, { env: variable, required }]) =>
        `--${name} is required${variable ? ` (or ${variable})` : ''}${typeof required === 'object' ? ` (or --${required.unless})` : ''}`,
    )

  const problems = [...unknown, ...wrong, ...missing]
  if (problems.length > 0) throw new UsageError(problems.join('; '))
  return values as FlagValues<T>
}

function isGiven(value: string | string[] | boolean | undefined): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false
}

function tokensOf(table: FlagTable, args: readonly string[]) {
  return parseArgs({ args: withValuesLeftOut(table, args), options: parserOptions(table), strict: false, allowPositionals: true, tokens: true }).tokens
}

/**
 * parseArgs takes the word after a flag with a value whatever that word is, so `--out --in x`
 * would read `--in` as the directory. A word there that looks like a flag means the value was
 * left out (as parseArgs' strict mode takes it): the flag is given an empty value instead, which
 * `parseFlags` reports, and the next flag is read as one.
 */
function withValuesLeftOut(table: FlagTable, args: readonly string[]): string[] {
  const out = [...args]
  for (let index = 0; index < out.length - 1; index++) {
    const word = out[index]!
    if (word === '--') break
    const name = word.startsWith('--') && !word.includes('=') ? word.slice(2) : undefined
    if (name === undefined || !Object.hasOwn(table, name) || !table[name]!.value) continue
    const next = out[index + 1]!
    if (next.length > 1 && next.startsWith('-')) out[index] = `${word}=`
    else index++
  }
  return out
}
