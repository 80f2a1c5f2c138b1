import { execFile } from 'node:child_process'
import { haproxySocket, refusal } from './haproxy-socket.ts'
import { parseShowProc, type ProcTable } from './show-proc.ts'

export interface MasterReloadOptions {
  /** The master CLI socket: `haproxy -W -S <path>`. */
  masterSocket: string
  /** The `-f` arguments HAProxy runs with (directories or files): `haproxy -c` checks exactly these. */
  configs: string[]
  /** HAProxy's working directory, from which relative paths resolve. */
  cwd: string
  /** The HAProxy binary; default `haproxy` from PATH. */
  binary?: string
  /** The check, the reload and its confirmation, together; default 30 s. */
  timeoutMs?: number
}

export interface Reloaded {
  /** The new worker(s) now serving, and the ones they replace. */
  workers: number[]
  previous: number[]
  /** The master's reload count after this reload. */
  reloads: number
}

export class ReloadError extends Error {
  constructor(
    readonly stage: 'check' | 'reload' | 'confirm',
    message: string,
    /** HAProxy's own words: the `haproxy -c` output, or the last `show proc`. */
    readonly output: string,
  ) {
    super(`haproxy reload (${stage}): ${message}${output ? `\n${output.trimEnd()}` : ''}`)
    this.name = 'ReloadError'
  }
}

/** `haproxy -c` ran and refused the files: the same files always fail, unlike a check that could not run. */
export class CheckRefused extends ReloadError {
  constructor(message: string, output: string) {
    super('check', message, output)
    this.name = 'CheckRefused'
  }
}

const POLL_MS = 100

/**
 * A checked reload through the master CLI: `reload` (which in 2.6 answers nothing and closes the
 * connection), then `show proc` confirms the outcome: the master's reload count grew and a worker
 * with a new PID serves, or the failed-reload count grew and the previous worker keeps serving.
 * HAProxy parses the files once, in the master: `haproxy -c` runs only after a failed reload, for
 * HAProxy's own words on why (a CheckRefused when it refuses the files). Checking first parsed a
 * large configuration twice for every reload that went through (at 20,000 Ingresses some 5 s of
 * CPU each), to spare the master a parse the old worker outlives anyway.
 */
export async function masterReload(options: MasterReloadOptions): Promise<Reloaded> {
  const { masterSocket, configs, cwd, binary = 'haproxy', timeoutMs = 30_000 } = options
  if (configs.length === 0) throw new Error('haproxy reload: configs must name at least one -f argument')
  const deadline = Date.now() + timeoutMs
  const before = parseShowProc(await showProcOnceUp(masterSocket, deadline))
  const answer = await haproxySocket({ path: masterSocket, timeoutMs: Math.max(1, deadline - Date.now()) }).send('reload\n')
  if (refusal(answer)) throw new ReloadError('reload', 'the master refused `reload`', answer)

  const previous = new Set(before.workers.map((worker) => worker.pid))
  let last = ''
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    let after: ProcTable
    try {
      last = await haproxySocket({ path: masterSocket, timeoutMs: Math.max(1, deadline - Date.now()) }).run('show proc')
      after = parseShowProc(last)
    } catch {
      continue // the master re-executes itself and its socket is briefly gone
    }
    if (after.master.reloads <= before.master.reloads) continue
    if ((after.master.failed ?? 0) > (before.master.failed ?? 0)) {
      // Why: the files' fault (`haproxy -c` refuses them, and says where), or the moment's (a port taken, say).
      await checkedConfig({ binary, configs, cwd, timeoutMs: Math.max(1, deadline - Date.now()) }, 'the previous worker keeps serving')
      throw new ReloadError(
        'confirm',
        `HAProxy failed to load the new configuration (failed reloads ${before.master.failed ?? 0} → ${after.master.failed}); the previous worker keeps serving`,
        last,
      )
    }
    const fresh = after.workers.filter((worker) => !previous.has(worker.pid))
    if (fresh.length > 0) return { workers: fresh.map((worker) => worker.pid), previous: [...previous], reloads: after.master.reloads }
  }
  throw new ReloadError('confirm', `no new worker within ${timeoutMs} ms`, last)
}

/**
 * `show proc` once the master answers: right after it starts (and after each reload) the master
 * re-executes itself, and its socket refuses connections for that moment.
 */
export async function showProcOnceUp(masterSocket: string, deadline: number): Promise<string> {
  for (;;) {
    try {
      return await haproxySocket({ path: masterSocket, timeoutMs: Math.max(1, deadline - Date.now()) }).run('show proc')
    } catch (error) {
      if (Date.now() + POLL_MS >= deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  }
}

type CheckOptions = { binary: string; configs: string[]; cwd: string; timeoutMs: number }

/** `haproxy -c` on the given `-f` arguments, from HAProxy's working directory; `refused` when HAProxy ran and said no. */
function checkConfig(options: CheckOptions): Promise<{ ok: boolean; refused: boolean; output: string }> {
  const args = ['-c', ...options.configs.flatMap((config) => ['-f', config])]
  return new Promise((resolve) => {
    execFile(options.binary, args, { cwd: options.cwd, timeout: options.timeoutMs }, (error, stdout, stderr) => {
      const refused = error !== null && typeof error.code === 'number'
      resolve({ ok: error === null, refused, output: `${stdout}${stderr}${error && !stdout && !stderr ? error.message : ''}` })
    })
  })
}

/** Runs `haproxy -c`, throwing CheckRefused when HAProxy refuses the files and ReloadError when it could not check them; `then` says what did not happen. */
export async function checkedConfig(options: CheckOptions, then: string): Promise<void> {
  const check = await checkConfig(options)
  if (check.ok) return
  const files = options.configs.join(' ')
  if (check.refused) throw new CheckRefused(`haproxy -c refused ${files}; ${then}`, check.output)
  throw new ReloadError('check', `haproxy -c could not check ${files}; ${then}`, check.output)
}
