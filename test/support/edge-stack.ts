import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Agent } from '../../processes/agent/agent.ts'
import { agentApp } from '../../processes/agent/agent-app.ts'
import { statusReporter } from '../../processes/agent/report-status.ts'
import { SignedHeads } from '../../processes/agent/signed-heads.ts'
import type { HaproxyControl } from '../../processes/agent/agent.ts'
import { haproxyConfigs, haproxyControl } from '../../processes/agent/haproxy-control.ts'
import type { SourceOptions } from '../../processes/agent/pull-generation.ts'
import { coldContext } from './contracts/cluster-apps.ts'
import { eventually } from './eventually.ts'
import { freePort } from './free-port.ts'
import { haproxyAvailable, haproxyBinary } from './haproxy.ts'
import { startMasterWorker, type MasterWorker } from './master-worker.ts'
import { startNamedBackend, type NamedBackend } from './named-backends.ts'
import { projectRoot } from './run-cli.ts'
import { startServe, type Served } from './serve-process.ts'
import { makeTempDir, removeTempDir } from './temp-dir.ts'

export interface EdgeStack {
  root: string
  served: Served
  token: string
  httpPort: number
  httpsPort: number
  backends: Map<string, NamedBackend>
  source: SourceOptions
  control: HaproxyControl
  /** A new agent (a restart: cold cache, the files on disk). */
  agent(): Agent
  /** A new agent that listens on loopback and has told the function where: pushes drive it. */
  listeningAgent(): Promise<{ agent: Agent; url: string; close(): void }>
  /** The real `hapedge agent` as a process, listening and polling rarely, so that pushes drive it; `url` is where it listens (`/status`). */
  agentProcess(pod?: string, extraArgs?: string[]): Promise<AgentProcess>
  send(events: { type: 'MODIFIED' | 'DELETED'; object: unknown }[]): Promise<{ generation: number; manifest: string }>
  stop(): Promise<void>
}

/**
 * The whole path on one machine: `hapedge serve` on local disk with a cluster registered, named
 * loopback backends (pools of names sharing a port, one pool per Service), and HAProxy 2.6 in
 * master-worker mode started on the generation an init-container agent wrote from `initial`.
 */
export interface EdgeOptions {
  /** Let the function push to agents on loopback (default true). */
  push?: boolean
  /** More of the cluster's registration (API server access, say). */
  registration?: Record<string, unknown>
  /** Environment for `hapedge serve` (HAPEDGE_SECRET, say). */
  serveEnv?: Record<string, string>
  /** Takes the stack's directory at stop instead of removing it then: a benchmark removes it at exit (bench/removed-at-exit.ts). */
  removeRoot?: (root: string) => void
}

export type AgentProcess = ChildProcess & { url: string }

type EarlyStack = Omit<EdgeStack, 'control' | 'agent' | 'listeningAgent' | 'agentProcess' | 'stop'>

/**
 * `initial` names the first objects, sent as events; or, returning a promise, brings the first
 * generation about itself (a forwarder, say) before HAProxy starts.
 */
export async function startEdgeStack(
  pools: Record<string, string[]>,
  initial: (stack: EarlyStack) => unknown[] | Promise<void>,
  options: EdgeOptions = {},
): Promise<EdgeStack> {
  if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
  const root = await makeTempDir('hapedge-edge')
  const backends = new Map<string, NamedBackend>()
  let octet = 40
  for (const names of Object.values(pools)) {
    const first = await startNamedBackend({ name: names[0]!, host: `127.0.0.${octet++}` })
    backends.set(first.name, first)
    for (const name of names.slice(1)) backends.set(name, await startNamedBackend({ name, host: `127.0.0.${octet++}`, port: first.port }))
  }
  const served = await startServe(['--data', join(root, 'data')], options.serveEnv)
  const [httpPort, httpsPort] = [await freePort(), await freePort()]
  const registered = await fetch(`${served.url}/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'edge',
      httpBind: `127.0.0.1:${httpPort}`,
      httpsBind: `127.0.0.1:${httpsPort}`,
      agentOrigins: options.push === false ? [] : ['http://127.0.0.1:*'],
      ...options.registration,
    }),
  })
  const token = ((await registered.json()) as { token: string }).token
  const source = { source: served.url, cluster: 'edge', token }
  const send = async (events: { type: 'MODIFIED' | 'DELETED'; object: unknown }[]) => {
    const response = await fetch(`${served.url}/v1/clusters/edge/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    })
    if (!response.ok) throw new Error(`POST events: ${response.status} ${await response.text()}`)
    return (await response.json()) as { generation: number; manifest: string }
  }
  const first = initial({ root, served, token, httpPort, httpsPort, backends, source, send })
  if (Array.isArray(first)) await send(first.map((object) => ({ type: 'MODIFIED' as const, object })))
  else await first

  const dir = join(root, 'haproxy')
  const children: ChildProcess[] = []
  await new Agent(source, dir, coldContext()).sync()
  const sockets = { dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary }
  const control = await haproxyControl(sockets)
  const haproxy: MasterWorker = await startMasterWorker({ masterSocket: sockets.masterSocket, configs: haproxyConfigs(dir), cwd: dir, binary: haproxyBinary }, [
    httpPort,
  ])
  return {
    root,
    served,
    token,
    httpPort,
    httpsPort,
    backends,
    source,
    control,
    agent: () => new Agent(source, dir, coldContext(), control),
    async listeningAgent() {
      const port = await freePort()
      const url = `http://127.0.0.1:${port}`
      const signed = new SignedHeads(source.cluster)
      const agent = new Agent(source, dir, coldContext(), control, statusReporter(source, `listening-${port}`, { notifyUrl: url, signed }))
      const server = serve({ fetch: agentApp(agent, signed).fetch, hostname: '127.0.0.1', port })
      await agent.sync()
      await agent.reported()
      return { agent, url, close: () => void server.close() }
    },
    async agentProcess(pod = 'haproxy-0', extraArgs: string[] = []) {
      const port = await freePort()
      const child = spawn(
        process.execPath,
        [
          'bin/hapedge.js',
          'agent',
          '--source',
          served.url,
          '--cluster',
          'edge',
          '--dir',
          dir,
          '--master-socket',
          sockets.masterSocket,
          '--stats-socket',
          sockets.statsSocket,
          '--listen',
          `127.0.0.1:${port}`,
          '--poll',
          '10m',
          '--pod',
          pod,
          ...extraArgs,
        ],
        { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HAPEDGE_TOKEN: token, HAPROXY_BIN: haproxyBinary } },
      )
      children.push(child)
      const url = `http://127.0.0.1:${port}`
      await eventually(
        `agent ${pod} answering on ${port}`,
        () =>
          fetch(`${url}/status`).then(
            (response) => response.ok,
            () => false,
          ),
        30_000,
      )
      return Object.assign(child, { url })
    },
    send,
    async stop() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await haproxy.stop()
      await served.stop()
      for (const backend of backends.values()) await backend.close()
      if (options.removeRoot) options.removeRoot(root)
      else await removeTempDir(root)
    },
  }
}
