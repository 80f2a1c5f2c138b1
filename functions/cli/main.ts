import { ownValue } from '../../core/own-value.ts'
import { UsageError } from './usage-error.ts'

type Command = (args: string[]) => Promise<number>

// Each command is loaded when used: tsx compiles what a command imports on every start, and the
// app (for serve) or @kubernetes/client-node (for forward) would cost every other command a second or more.
const commands: Record<string, { run: Command; summary: string }> = {
  render: { run: async (args) => (await import('./render-command.ts')).renderCommand(args), summary: 'render HAProxy configuration from Kubernetes objects in files (the full rebuild)' },
  serve: { run: async (args) => (await import('./serve-command.ts')).serveCommand(args), summary: 'run the functions as a Node server on local disk storage (npm start)' },
  agent: { run: async (args) => (await import('./agent-command.ts')).agentCommand(args), summary: 'keep a directory and the HAProxy beside it on a cluster’s newest generation' },
  forward: { run: async (args) => (await import('./forward-command.ts')).forwardCommand(args), summary: 'in the cluster: watch what hapedge reads and send it to the function' },
  gc: { run: async (args) => (await import('./gc-command.ts')).gcCommand(args), summary: 'delete stored nodes and blobs that no retained generation references' },
}

/** `hapedge <command> …`: returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv
  const command = name === undefined ? undefined : ownValue(commands, name)
  if (!command) {
    if (name !== undefined && name !== 'help' && name !== '--help') console.error(`hapedge: unknown command "${name}"\n`)
    console.error(usage())
    return name === 'help' || name === '--help' ? 0 : 2
  }
  try {
    return await command.run(args)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`hapedge ${name}: ${error.message}`)
      return 2
    }
    throw error
  }
}

function usage(): string {
  const rows = Object.entries(commands).map(([name, { summary }]) => `  ${name.padEnd(8)} ${summary}`)
  return ['usage: hapedge <command> [options]', '', 'commands:', ...rows].join('\n')
}
