import { describe, expect, it, vi } from 'vitest'
import { agentCommand } from '../../../processes/cli/agent-command.ts'
import type { Command } from '../../../processes/cli/command.ts'
import { forwardCommand } from '../../../processes/cli/forward-command.ts'
import { gcCommand } from '../../../processes/cli/gc-command.ts'
import { parseFlags, parserOptions } from '../../../processes/cli/flags.ts'
import { usageLine } from '../../../processes/cli/help.ts'
import { main } from '../../../processes/cli/main.ts'
import { renderCommand } from '../../../processes/cli/render-command.ts'
import { routesCommand } from '../../../processes/cli/routes-command.ts'
import { serveCommand } from '../../../processes/cli/serve-command.ts'

const commands: [string, Command][] = [
  ['render', renderCommand],
  ['serve', serveCommand],
  ['agent', agentCommand],
  ['forward', forwardCommand],
  ['gc', gcCommand],
  ['routes', routesCommand],
]

/** The example's words: leading `NAME=value` words are its environment, then `hapedge <name>` and the flags. */
function exampleOf(name: string, command: Command) {
  const words = command.example.split(' ')
  const assignments = words.filter((_word, index) => words.slice(0, index + 1).every((before) => /^[A-Z_]+=/.test(before)))
  const [program, given, ...args] = words.slice(assignments.length)
  expect([program, given]).toEqual(['hapedge', name])
  return { args, env: Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)])) }
}

/** What `hapedge <argv>` prints: one text on stdout, nothing on stderr. */
async function printedHelp(argv: string[]): Promise<{ code: number; text: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    const code = await main(argv)
    expect(error).not.toHaveBeenCalled()
    expect(log).toHaveBeenCalledTimes(1)
    return { code, text: String(log.mock.calls[0]![0]) }
  } finally {
    vi.restoreAllMocks()
  }
}

/** Each of `argvs` in turn (they share console's spies). */
async function printedHelps(argvs: string[][]) {
  const printed = []
  for (const argv of argvs) printed.push(await printedHelp(argv))
  return printed
}

describe.each(commands)('hapedge help %s', (name, command) => {
  it('prints the same help on stdout with exit code 0 for help NAME, NAME --help and NAME -h', async () => {
    const printed = await printedHelps([
      ['help', name],
      [name, '--help'],
      [name, '-h'],
    ])
    expect(printed.map(({ code }) => code)).toEqual([0, 0, 0])
    expect(new Set(printed.map(({ text }) => text)).size).toBe(1)
  })

  it('lists every flag the parser takes, once, with the default the parser applies', async () => {
    const { text } = await printedHelp(['help', name])
    const { args, env } = exampleOf(name, command)
    const parsed: Record<string, unknown> = parseFlags(command.flags, args, env)
    const lines = text.split('\n')
    for (const [flag, option] of Object.entries(parserOptions(command.flags))) {
      const spelled = flag === 'help' ? '-h, --help' : `--${flag}${option.type === 'string' ? ` ${command.flags[flag]!.value}` : ''}`
      const shown = lines.filter((line) => line.startsWith(`  ${spelled} `))
      expect(shown, `${name} --${flag}`).toHaveLength(1)
      const table = command.flags[flag]
      if (!table) continue
      const given = args.some((arg) => arg === `--${flag}` || arg.startsWith(`--${flag}=`))
      if (table.default !== undefined && !given) expect(shown[0], `${name} --${flag}`).toContain(`default: ${String(parsed[flag])}`)
      if (table.defaultNote !== undefined) expect(shown[0], `${name} --${flag}`).toContain(table.defaultNote)
      if (table.required) expect(shown[0], `${name} --${flag}`).toMatch(/\(required/)
      if (table.repeatable) expect(shown[0], `${name} --${flag}`).toContain('repeatable')
      if (table.env) expect(shown[0], `${name} --${flag}`).toContain(`$${table.env}`)
    }
  })

  it('opens with a usage line naming every required flag, and shows an example its parser takes', async () => {
    const { text } = await printedHelp(['help', name])
    const usage = usageLine(name, command.flags)
    expect(text.split('\n')[0]).toBe(`usage: ${usage}`)
    for (const [flag, { required, value }] of Object.entries(command.flags)) if (required === true) expect(usage).toContain(`--${flag} ${value}`)
    expect(text).toContain(`example:\n  ${command.example}`)
    const { args, env } = exampleOf(name, command)
    expect(() => parseFlags(command.flags, args, env)).not.toThrow()
  })
})

describe('hapedge --help', () => {
  it('lists every command with one line, and help, on stdout with exit code 0, for --help, -h and help', async () => {
    const printed = await printedHelps([['--help'], ['-h'], ['help']])
    expect(printed.map(({ code }) => code)).toEqual([0, 0, 0])
    expect(new Set(printed.map(({ text }) => text)).size).toBe(1)
    for (const name of [...commands.map(([name]) => name), 'help']) expect(printed[0]!.text).toMatch(new RegExp(`^  ${name} +\\S.*$`, 'm'))
  })
})
