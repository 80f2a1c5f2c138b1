import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './free-port.ts'
import { projectRoot } from './run-cli.ts'

export interface WranglerDev {
  url: string
  /** wrangler's process, the leader of the group workerd runs in. */
  pid: number
  adminToken: string
  /** Rejects when wrangler dev exits, naming the end of its output (a stop included: race it only while the Worker should run). */
  ended: Promise<never>
  /** What wrangler and workerd printed so far. */
  output(): string
  stop(): Promise<void>
}

/**
 * `wrangler dev` on wrangler.toml (workerd, with local R2 persisted under `dir`), on a free
 * loopback port; resolves once the Worker answers `/healthz`. The Worker is bundled first (as
 * `wrangler deploy` would) and run unbundled from there, so that edits to the source tree do not
 * restart it mid-request. Stopped through its process group, so workerd goes with it.
 */
export async function startWranglerDev(dir: string, adminToken = 'wrangler-dev-admin-token'): Promise<WranglerDev> {
  const bundle = join(dir, 'bundle')
  await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', bundle], {
    cwd: projectRoot,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  })
  const port = await freePort()
  const child = spawn(
    join(projectRoot, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      join(bundle, 'index.js'),
      '--no-bundle',
      '--config',
      join(projectRoot, 'wrangler.toml'),
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      join(dir, 'state'),
      '--var',
      `ADMIN_TOKEN:${adminToken}`,
      '--show-interactive-dev-session=false',
    ],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' } },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const ended = exited.then((): never => {
    throw new Error(`wrangler dev exited (${child.signalCode ?? child.exitCode}): ${output.trim().split('\n').slice(-3).join(' / ')}`)
  })
  ended.catch(() => {})
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
    await exited
  }
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output}`)
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return { url, pid: child.pid!, adminToken, ended, output: () => output, stop }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`wrangler dev did not answer /healthz within 90 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
