import { agentCommand } from './agent-command.ts'
import { gcCommand } from './gc-command.ts'
import { renderCommand } from './render-command.ts'
import { serveCommand } from './serve-command.ts'
import { UsageError } from './usage-error.ts'

type Command = (args: string[]) => Promise<number>

const commands: Record<string, { run: Command; summary: string }> = {
  render: { run: renderCommand, summary: 'render HAProxy configuration from Kubernetes objects in files (the full rebuild)' },
  serve: { run: serveCommand, summary: 'run the functions as a Node server on local disk storage (npm start)' },
  agent: { run: agentCommand, summary: 'keep a directory and the HAProxy beside it on a cluster’s newest generation' },
  // Loaded when used: @kubernetes/client-node takes about a second to import, which every other command would pay.
  forward: { run: async (args) => (await import('./forward-command.ts')).forwardCommand(args), summary: 'in the cluster: watch what hapedge reads and send it to the function' },
  gc: { run: gcCommand, summary: 'delete stored nodes and blobs that no retained generation references' },
}

/** `hapedge <command> …`: returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv
  const command = name === undefined ? undefined : commands[name]
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
