import { isAbsolute, join } from 'node:path'

/**
 * One command of the local quickstart, as data: `npm start` prints it as a shell line, the
 * README holds the same lines, and a test runs each step itself (a program with its arguments,
 * not a shell string), so what is printed is what was proven to serve.
 */
export type QuickstartStep =
  /** `export NAME=…`: `append` adds a directory to PATH; `fromFile` is a file's content. */
  | { export: string; append?: string; fromFile?: string; note?: string }
  /** `echo 'text' > path`. */
  | { write: string; text: string }
  /** A program and its arguments; `background` ends the line with `&`. */
  | { run: readonly Word[]; background?: boolean; note?: string }
  /** A comment line: what to do afterwards, not to run when pasted. */
  | { comment: string }

/** An argument: a string as it is, or a path that must reach the program absolute (HAProxy's `-S` takes no relative path), from the directory the commands run in. */
export type Word = string | { absolute: string }

export interface QuickstartOptions {
  /** The function's URL, as `hapedge serve` prints it. */
  source: string
  cluster: string
  /** The data directory as a path from where the commands run: it holds the cluster token. */
  data: string
  /** The agent's directory (its `--dir`), HAProxy's configuration. */
  dir: string
  /** What the example backends serve, outside the data directory, which holds the admin token. */
  www: string
  /** The following agent's `--listen`, the address the function pushes to. */
  listen: string
  /** The following agent's `--poll`, when not its default. */
  poll?: string
  /** Where HAProxy serves plain HTTP (the cluster's httpBind), and one of the example's hosts. */
  http: { address: string; port: number; host: string }
}

/** The example's Services and their loopback endpoints (infra/examples/cluster.yaml), one folder and one port each. */
export const EXAMPLE_BACKENDS = [
  { service: 'web', port: 9001 },
  { service: 'api', port: 9002 },
] as const

/** The quickstart for `npm start` as run from the project root: the same text the README shows. */
export function exampleQuickstart(source = 'http://127.0.0.1:8787', data = '.hapedge'): QuickstartOptions {
  return {
    source,
    cluster: 'example',
    data,
    dir: join(data, 'agent'),
    www: '/tmp/hapedge-www',
    listen: '127.0.0.1:8790',
    http: { address: '127.0.0.1', port: 8080, host: 'a.docs.example.local' },
  }
}

/**
 * The example served through HAProxy on this machine: its backends, `hapedge agent --once`
 * (the init container), HAProxy in master-worker mode on what it wrote, the agent that follows
 * the cluster and takes the function's pushes, and a request through HAProxy.
 */
export function quickstartSteps(options: QuickstartOptions): QuickstartStep[] {
  const { source, cluster, data, dir, www, listen, poll, http } = options
  // Not `npx hapedge`: npx does not pass on the signal that stops it, so `kill` would leave the agent running.
  const agent = ['node', 'bin/hapedge.js', 'agent', '--source', source, '--cluster', cluster, '--dir', dir]
  const folder = (service: string) => join(www, service)
  return [
    { export: 'PATH', append: '/usr/sbin', note: "Debian keeps haproxy there, off a user's PATH" },
    { export: 'HAPEDGE_TOKEN', fromFile: join(data, `${cluster}-token`), note: `the cluster's token, kept by npm start` },
    { run: ['mkdir', '-p', dir, ...EXAMPLE_BACKENDS.map(({ service }) => folder(service))] },
    ...EXAMPLE_BACKENDS.map(({ service }) => ({ write: join(folder(service), 'index.html'), text: `served by ${service}` })),
    ...EXAMPLE_BACKENDS.map(({ service, port }) => ({
      run: ['python3', '-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', folder(service)],
      background: true,
      note: `the Service ${service}'s endpoint`,
    })),
    { run: [...agent, '--once'], note: `writes ${join(dir, 'current')} and ${join(dir, 'agent.cfg')}` },
    { run: ['haproxy', '-W', '-S', { absolute: join(dir, 'master.sock') }, '-f', join(dir, 'agent.cfg'), '-f', join(dir, 'current')], background: true },
    {
      run: [...agent, '--master-socket', join(dir, 'master.sock'), '--listen', listen, ...(poll ? ['--poll', poll] : [])],
      background: true,
      note: "takes the function's pushes",
    },
    { run: ['curl', '--retry', '5', '--retry-connrefused', '-H', `Host: ${http.host}`, `http://${http.address}:${http.port}/`] },
    { comment: 'edit infra/examples/cluster.yaml and start npm start again: the agent says how it took the new generation. Stop all: kill $(jobs -p)' },
  ]
}

/** Where a client on this machine reaches a bind: its own address, or loopback for a bind on every address. */
export function reachableAt(bind: string): { address: string; port: number } {
  const cut = bind.lastIndexOf(':')
  const address = bind.slice(0, cut)
  return { address: ['', '*', '0.0.0.0', '[::]'].includes(address) ? '127.0.0.1' : address, port: Number(bind.slice(cut + 1)) }
}

/** The steps as lines to paste into a shell. */
export function quickstartLines(steps: readonly QuickstartStep[]): string[] {
  return steps.map((step) => {
    if ('comment' in step) return `# ${step.comment}`
    if ('write' in step) return `echo ${shellWord(step.text)} > ${shellWord(step.write)}`
    if ('export' in step) {
      const value = step.append !== undefined ? `"$${step.export}:${step.append}"` : `$(cat ${shellWord(step.fromFile ?? '')})`
      return withNote(`export ${step.export}=${value}`, step.note)
    }
    return withNote(`${step.run.map(shellArgument).join(' ')}${step.background ? ' &' : ''}`, step.note)
  })
}

function withNote(line: string, note: string | undefined): string {
  return note ? `${line}  # ${note}` : line
}

function shellArgument(word: Word): string {
  if (typeof word === 'string') return shellWord(word)
  return isAbsolute(word.absolute) ? shellWord(word.absolute) : `"$PWD/${word.absolute.replace(/["$`\\]/g, '\\$&')}"`
}

/** A word as a shell reads it back: bare when it holds nothing the shell would interpret, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
