import { ownValue } from '../../core/own-value.ts'
import type { Command } from './command.ts'
import { CommandError } from './command-error.ts'
import { asksForHelp } from './flags.ts'
import { commandHelp, overview, usageLine } from './help.ts'
import { UsageError } from './usage-error.ts'

// Each command is loaded when used: tsx compiles what a command imports on every start, and the
// app (for serve) or @kubernetes/client-node (for forward) would cost every other command a second or more.
const commands: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  render: {
    summary: 'render HAProxy configuration from Kubernetes objects in files (the full rebuild)',
    load: async () => (await import('./render-command.ts')).renderCommand,
  },
  serve: {
    summary: 'run the functions as a Node server on local disk or S3-compatible storage (npm start)',
    load: async () => (await import('./serve-command.ts')).serveCommand,
  },
  agent: {
    summary: 'keep a directory and the HAProxy beside it on a cluster’s newest generation',
    load: async () => (await import('./agent-command.ts')).agentCommand,
  },
  forward: {
    summary: 'in the cluster: watch what hapedge reads and send it to the function',
    load: async () => (await import('./forward-command.ts')).forwardCommand,
  },
  gc: { summary: 'delete stored nodes and blobs that no retained generation references', load: async () => (await import('./gc-command.ts')).gcCommand },
  routes: {
    summary: 'list what a cluster serves now: every host and path with its backend and servers',
    load: async () => (await import('./routes-command.ts')).routesCommand,
  },
}

const summaries = Object.fromEntries(Object.entries(commands).map(([name, { summary }]) => [name, summary]))

/**
 * `hapedge <command> …`: returns the process exit code. Help goes to stdout with 0; wrong words
 * are 2, with the command's usage; a CommandError, or a system call refused on a path a flag named
 * (`ENOTDIR: not a directory, mkdir 'out/x'`), is 1 with its message alone. Anything else is a
 * fault of hapedge's: its message and a hint, its stack only with HAPEDGE_DEBUG=1.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv
  if (name === '--help' || name === '-h' || (name === 'help' && args[0] === undefined)) {
    console.log(overview(summaries))
    return 0
  }
  const asked = name === 'help' ? args[0] : name
  const entry = asked === undefined ? undefined : ownValue(commands, asked)
  if (asked === undefined || !entry) {
    if (asked !== undefined) console.error(`hapedge: unknown command ${JSON.stringify(asked)}\n`)
    console.error(overview(summaries))
    return 2
  }
  let command: Command | undefined
  try {
    command = await entry.load()
    if (name === 'help' || asksForHelp(command.flags, args)) {
      console.log(commandHelp(asked, entry.summary, command))
      return 0
    }
    return await command(args)
  } catch (error) {
    return report(asked, command, error)
  }
}

function report(name: string, command: Command | undefined, error: unknown): number {
  if (error instanceof UsageError) {
    console.error(`hapedge ${name}: ${error.message}`)
    if (command) console.error(`usage: ${usageLine(name, command.flags)}  (every flag: hapedge help ${name})`)
    return 2
  }
  if (error instanceof CommandError || isSystemError(error)) {
    console.error(`hapedge ${name}: ${error.message}`)
    return 1
  }
  if (process.env.HAPEDGE_DEBUG) console.error(`hapedge ${name}:`, error)
  else console.error(`hapedge ${name}: ${error instanceof Error ? error.message : String(error)}\n(unexpected: set HAPEDGE_DEBUG=1 to see where it came from)`)
  return 1
}

/** An error from a system call on a path (`ENOENT: no such file or directory, open 'x'`): its message says what and where. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string' && typeof (error as NodeJS.ErrnoException).path === 'string'
}
