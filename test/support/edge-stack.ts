import { join } from 'node:path'
import { Agent } from '../../functions/agent/agent.ts'
import type { HaproxyControl } from '../../functions/agent/agent.ts'
import { haproxyConfigs, haproxyControl } from '../../functions/agent/haproxy-control.ts'
import type { SourceOptions } from '../../functions/agent/pull-generation.ts'
import { coldContext } from './contracts/cluster-apps.ts'
import { freePort } from './free-port.ts'
import { haproxyAvailable, haproxyBinary } from './haproxy.ts'
import { startMasterWorker, type MasterWorker } from './master-worker.ts'
import { startNamedBackend, type NamedBackend } from './named-backends.ts'
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
  send(events: { type: 'MODIFIED' | 'DELETED'; object: unknown }[]): Promise<void>
  stop(): Promise<void>
}

/**
 * The whole path on one machine: `hapedge serve` on local disk with a cluster registered, named
 * loopback backends (pools of names sharing a port, one pool per Service), and HAProxy 2.6 in
 * master-worker mode started on the generation an init-container agent wrote from `initial`.
 */
export async function startEdgeStack(pools: Record<string, string[]>, initial: (stack: Omit<EdgeStack, 'control' | 'agent' | 'stop'>) => unknown[]): Promise<EdgeStack> {
  if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
  const root = await makeTempDir('hapedge-edge')
  const backends = new Map<string, NamedBackend>()
  let octet = 40
  for (const names of Object.values(pools)) {
    const first = await startNamedBackend({ name: names[0]!, host: `127.0.0.${octet++}` })
    backends.set(first.name, first)
    for (const name of names.slice(1)) backends.set(name, await startNamedBackend({ name, host: `127.0.0.${octet++}`, port: first.port }))
  }
  const served = await startServe(['--data', join(root, 'data')])
  const [httpPort, httpsPort] = [await freePort(), await freePort()]
  const registered = await fetch(`${served.url}/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'edge', httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` }),
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
  }
  await send(initial({ root, served, token, httpPort, httpsPort, backends, source, send }).map((object) => ({ type: 'MODIFIED' as const, object })))

  const dir = join(root, 'haproxy')
    await new Agent(source, dir, coldContext()).sync()
  const sockets = { dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary }
  const control = await haproxyControl(sockets)
  const haproxy: MasterWorker = await startMasterWorker({ masterSocket: sockets.masterSocket, configs: haproxyConfigs(dir), cwd: dir, binary: haproxyBinary }, [httpPort])
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
    send,
    async stop() {
      await haproxy.stop()
      await served.stop()
      for (const backend of backends.values()) await backend.close()
      await removeTempDir(root)
    },
  }
}
