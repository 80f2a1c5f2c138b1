import { spawn, type ChildProcess } from 'node:child_process'
import { createConnection } from 'node:net'
import { showProcOnceUp, type MasterReloadOptions } from '../../processes/agent/master-reload.ts'

export interface MasterWorker {
  stop(): Promise<void>
}

/** `haproxy -W -S <master socket> -f …` in the foreground; ready once a worker answers on every port and the master on its socket. */
export async function startMasterWorker(options: MasterReloadOptions, ports: number[]): Promise<MasterWorker> {
  const args = ['-W', '-S', options.masterSocket, ...options.configs.flatMap((config) => ['-f', config])]
  const child: ChildProcess = spawn(options.binary ?? 'haproxy', args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const kill = () => child.kill('SIGKILL')
  process.once('exit', kill)
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(kill, 5_000)
      await exited
      clearTimeout(timer)
    }
    process.off('exit', kill)
  }
  // A large configuration (the benchmark's 20,000 Ingresses: thousands of backends, maps of tens of thousands of entries) takes seconds to load on a busy machine.
  const deadline = Date.now() + 60_000
  for (const port of ports) {
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop()
        throw new Error(`haproxy ${args.join(' ')} did not serve 127.0.0.1:${port}:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await showProcOnceUp(options.masterSocket, deadline).catch(async (error: Error) => {
    await stop()
    throw new Error(`haproxy ${args.join(' ')}: its master CLI did not answer: ${error.message}\n${output}`)
  })
  return { stop }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
