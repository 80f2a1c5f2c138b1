import { execFile, spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeTempDir, removeTempDir } from './temp-dir.ts'

/** Override with HAPROXY_BIN; /usr/sbin is often missing from PATH for non-root users. */
export const haproxyBinary = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy'

const READY_TIMEOUT_MS = 10_000
const READY_POLL_MS = 50
const STOP_GRACE_MS = 5_000

export interface HaproxyCheckResult {
  ok: boolean
  output: string
}

export interface StartHaproxyOptions {
  /** Config directory; HAProxy loads every `*.cfg` in it, alphabetically. */
  dir: string
  /** Extra config text loaded after `dir`, e.g. a `global` section with `stats socket`. */
  extraConfig?: string
  /** Ports on 127.0.0.1 that must accept TCP connections before the start counts as done. */
  readyPorts: number[]
}

export interface RunningHaproxy {
  pid: number
  /** Everything HAProxy wrote to stdout and stderr so far. */
  output(): string
  /** SIGTERM, then SIGKILL if HAProxy has not exited after 5 s. Idempotent. */
  stop(): Promise<void>
}

/** True when the HAProxy binary runs; lets suites fail with a clear message instead of a spawn error. */
export function haproxyAvailable(): boolean {
  const result = spawnSync(haproxyBinary, ['-v'], { stdio: 'ignore' })
  return result.error === undefined && result.status === 0
}

/** Runs `haproxy -c -f <dir>` with cwd = dir, so relative paths resolve as they would in production. */
export function haproxyCheck(dir: string): Promise<HaproxyCheckResult> {
  return new Promise((resolve) => {
    execFile(haproxyBinary, ['-c', '-f', dir], { cwd: dir }, (error, stdout, stderr) => {
      resolve({ ok: error === null, output: `${stdout}${stderr}` })
    })
  })
}

// Every child still running, so a crashed or failing test never leaks an HAProxy.
// This relies on the test process exiting (vitest's default `forks` pool); a terminated
// `threads` worker gets no exit event, so suites should still stop() in afterAll.
const running = new Set<ChildProcess>()

function killAllSync(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

process.once('exit', killAllSync)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllSync()
    // Our listener is gone now, so re-raising gets the default behaviour (terminate).
    process.kill(process.pid, signal)
  })
}

/** Starts `haproxy -db` in the foreground and resolves once every ready port accepts connections. */
export async function startHaproxy(options: StartHaproxyOptions): Promise<RunningHaproxy> {
  const { dir, extraConfig, readyPorts } = options
  const args = ['-db', '-f', dir]

  // The extra file lives outside `dir` so `haproxy -f dir` never picks it up by itself.
  let extraDir: string | undefined
  if (extraConfig !== undefined) {
    extraDir = await makeTempDir('hapedge-haproxy-extra')
    const extraFile = join(extraDir, 'extra.cfg')
    await writeFile(extraFile, extraConfig.endsWith('\n') ? extraConfig : `${extraConfig}\n`)
    args.push('-f', extraFile)
  }

  const child = spawn(haproxyBinary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)

  let output = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))

  // A failed spawn emits 'error' but never 'exit'; either way the process is gone.
  let spawnError: Error | undefined
  let hasExited = false
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      hasExited = true
      running.delete(child)
      resolve()
    }
    child.once('exit', done)
    child.once('error', (error) => {
      spawnError = error
      done()
    })
  })

  const stop = async (): Promise<void> => {
    if (!hasExited) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    }
    if (extraDir !== undefined) await removeTempDir(extraDir)
  }

  const failure = (reason: string) => new Error(`HAProxy ${reason} (args: ${args.join(' ')}, cwd: ${dir})\n--- HAProxy output ---\n${output}`)

  const deadline = Date.now() + READY_TIMEOUT_MS
  for (const port of readyPorts) {
    for (;;) {
      const outcome = await Promise.race([canConnect(port).then((ok) => (ok ? 'ready' : 'retry')), exited.then(() => 'exited' as const)])
      if (outcome === 'ready') break
      if (outcome === 'exited') {
        await stop()
        throw failure(spawnError ? `could not be spawned: ${spawnError.message}` : `exited early with code ${child.exitCode} signal ${child.signalCode}`)
      }
      if (Date.now() > deadline) {
        await stop()
        throw failure(`did not open 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms`)
      }
      await sleep(READY_POLL_MS)
    }
  }

  if (child.pid === undefined) throw failure('has no pid')
  return { pid: child.pid, output: () => output, stop }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
