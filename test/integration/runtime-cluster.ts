import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import type { AgentPlan, Plan } from '../../core/plan/plan.ts'
import type { ClusterOptions } from '../../core/model/settings.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { haproxySocket } from '../../processes/agent/haproxy-socket.ts'
import { applyAtRuntime, type RuntimeApplied } from '../../processes/agent/runtime-commands.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { masterReload } from '../../processes/agent/master-reload.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { startMasterWorker } from '../support/master-worker.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/**
 * A cluster the engine keeps (LiveCluster), served by the real HAProxy in master-worker mode as
 * the agent runs it: each change's files are written and applied through the runtime API as the
 * agent plans them from the files, so a test sees what a value change does without a reload.
 */
export interface RuntimeCluster {
  httpPort: number
  httpsPort: number
  live: LiveCluster
  /** The worker processes' ids: the same before and after a change applied at runtime. */
  workers(): Promise<number[]>
  /** One change through the engine and the agent's runtime commands (never a reload). */
  atRuntime(events: WatchEvent[]): Promise<{ plan: Plan; agentPlan: AgentPlan; applied: RuntimeApplied }>
  /** One change that needs a reload (a new backend, a new port): its files written and a checked reload through the master CLI, as the agent plans it from the files. */
  byReload(events: WatchEvent[]): Promise<{ plan: Plan; agentPlan: AgentPlan }>
  stop(): Promise<void>
}

export const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
export const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })
export const deleted = (object: unknown): WatchEvent => ({ type: 'DELETED', object: object as Record<string, unknown> })

/** `options`: the cluster's other options (gatewayPorts), beside the binds on free loopback ports. */
export async function startRuntimeCluster(objects: unknown[], name: string, options: Partial<ClusterOptions> = {}): Promise<RuntimeCluster> {
  if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
  const root = await makeTempDir(name)
  const conf = join(root, 'conf')
  const [httpPort, httpsPort] = [await freePort(), await freePort()]
  const live = new LiveCluster({ ...options, httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` })
  live.apply(objects.map(added))
  await writeRendered(conf, live.files())
  const agentConfig = join(root, 'agent.cfg')
  await writeFile(agentConfig, `global\n    stats socket ${join(root, 'admin.sock')} mode 600 level admin\n`)
  const reload = { masterSocket: join(root, 'master.sock'), configs: [agentConfig, conf], cwd: conf, binary: haproxyBinary, timeoutMs: 15_000 }
  const haproxy = await startMasterWorker(reload, [httpPort]).catch(async (error: unknown) => {
    await removeTempDir(root)
    throw error
  })
  const stats = haproxySocket({ path: join(root, 'admin.sock') })
  return {
    httpPort,
    httpsPort,
    live,
    workers: async () => parseShowProc(await haproxySocket({ path: reload.masterSocket }).run('show proc')).workers.map((worker) => worker.pid),
    atRuntime: async (events) => {
      const before = live.files()
      const { plan } = live.apply(events)
      const files = live.files()
      const agentPlan = planFromFiles(before, files)
      if (plan.reload || agentPlan.reload) throw new Error(`not a runtime change: ${[...plan.reasons, ...agentPlan.reasons].join('; ')}`)
      await writeRendered(conf, files)
      return { plan, agentPlan, applied: await applyAtRuntime(stats, agentPlan, files) }
    },
    byReload: async (events) => {
      const before = live.files()
      const { plan } = live.apply(events)
      const files = live.files()
      const agentPlan = planFromFiles(before, files)
      if (!plan.reload || !agentPlan.reload) throw new Error('not a change that reloads: use atRuntime')
      await writeRendered(conf, files)
      await masterReload(reload)
      return { plan, agentPlan }
    },
    stop: async () => {
      await haproxy.stop()
      await removeTempDir(root)
    },
  }
}
