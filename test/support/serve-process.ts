import { spawn, type ChildProcess } from 'node:child_process'
import { projectRoot } from './run-cli.ts'

export interface Served {
  url: string
  adminToken: string
  process: ChildProcess
  /** What it printed so far, stdout and stderr. */
  output(): string
  stop(): Promise<void>
}

/** Starts the real `hapedge serve` on a free loopback port and waits until it says where it listens. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, ['bin/hapedge.js', 'serve', '--port', '0', ...args], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hapedge serve did not start:\n${output}`)), 30_000)
    child.once('exit', (code) => reject(new Error(`hapedge serve exited with ${code}:\n${output}`)))
    const read = (chunk: Buffer) => {
      output += chunk
      const url = /serving on (http:\/\/\S+)/.exec(output)?.[1]
      // A token from the environment is not printed: the one given is the one served.
      const given = { ...process.env, ...env }.HAPEDGE_ADMIN_TOKEN
      const adminToken = /admin token: from HAPEDGE_ADMIN_TOKEN/.test(output) ? given : /admin token: (\S+) \(from /.exec(output)?.[1]
      if (!url || !adminToken) return
      clearTimeout(timer)
      // From here on what it prints is only kept: read again whole for each chunk, a long run's output (a benchmarked server's --trace-gc lines) cost its square.
      child.stdout.off('data', read)
      child.stdout.on('data', keep)
      const stop = () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM'))))
      resolve({ url, adminToken, process: child, output: () => output, stop })
    }
    const keep = (chunk: Buffer) => {
      output += chunk
    }
    child.stdout.on('data', read)
    child.stderr.on('data', keep)
  })
}
