import type { Command } from './command.ts'
import type { Flag, FlagTable } from './flags.ts'

/** `hapedge render --in PATH… --out DIR [flags]`: the command with its required flags. */
export function usageLine(name: string, flags: FlagTable): string {
  const entries = Object.entries(flags)
  const required = entries
    .filter(([, flag]) => flag.required === true)
    .map(([flagName, flag]) => `${flagSpelling(flagName, flag)}${flag.repeatable ? '…' : ''}`)
  const optional = entries.length > required.length ? ['[flags]'] : []
  return ['hapedge', name, ...required, ...optional].join(' ')
}

/** What `hapedge help NAME` and `hapedge NAME --help` print: usage, summary, every flag with its default, the environment, an example. */
export function commandHelp(name: string, summary: string, command: Command): string {
  const rows: [string, string][] = [
    ...Object.entries(command.flags).map(([flagName, flag]): [string, string] => [flagSpelling(flagName, flag), `${flag.description}${annotation(flag)}`]),
    ['-h, --help', 'print this help'],
  ]
  const environment = Object.entries(command.environment)
  return [
    `usage: ${usageLine(name, command.flags)}`,
    '',
    summary,
    '',
    'flags:',
    ...table(rows),
    ...(environment.length ? ['', 'environment:', ...table(environment)] : []),
    '',
    'example:',
    `  ${command.example}`,
  ].join('\n')
}

/** What `hapedge --help` prints: every command with one line. */
export function overview(summaries: Readonly<Record<string, string>>): string {
  const rows = Object.entries({ ...summaries, help: 'print a command’s flags, their defaults and an example: hapedge help <command>' })
  return ['usage: hapedge <command> [flags]', '', 'commands:', ...table(rows), '', 'Every command takes --help (or -h) as well.'].join('\n')
}

function flagSpelling(name: string, flag: Flag): string {
  return flag.value ? `--${name} ${flag.value}` : `--${name}`
}

/** `(required, or HAPEDGE_TOKEN)`, `(repeatable; default: every cluster)`, `(default: $POD_NAME, else the host name)`. */
function annotation(flag: Flag): string {
  const notes: string[] = []
  if (flag.required === true) notes.push(flag.env ? `required, or $${flag.env}` : 'required')
  else if (flag.required) notes.push(`required unless --${flag.required.unless}`)
  if (flag.repeatable) notes.push('repeatable')
  const fallback = flag.default ?? flag.defaultNote
  if (flag.env && flag.required !== true) notes.push(`default: $${flag.env}${fallback === undefined ? '' : `, else ${fallback}`}`)
  else if (fallback !== undefined) notes.push(`default: ${fallback}`)
  return notes.length ? ` (${notes.join('; ')})` : ''
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 3
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`)
}
