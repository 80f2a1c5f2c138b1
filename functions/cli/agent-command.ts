import { hostname } from 'node:os'
import { join } from 'node:path'
import type { ParseArgsConfig } from 'node:util'
import { serve } from '@hono/node-server'
import { isClusterId } from '../../core/commit/cluster-keys.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { Agent, type HaproxyControl } from '../agent/agent.ts'
import { agentApp } from '../agent/agent-app.ts'
import { haproxyControl } from '../agent/haproxy-control.ts'
import { statusReporter } from '../agent/report-status.ts'
import { notifyUrl } from '../../core/registry/agent-origins.ts'
import { podName } from '../../core/registry/agent-report.ts'
import { nodeSha256 } from '../node/sha256.ts'
import { parseDuration } from './duration.ts'
import { namespacedName } from './namespaced-name.ts'
import { parseOptions, UsageError } from './usage-error.ts'

/** The flags of `hapedge agent`, as `parseArgs` takes them; the manifests' tests parse the agent containers' args with them. */
export const agentOptions = {
  source: { type: 'string' },
  cluster: { type: 'string' },
  token: { type: 'string' },
  dir: { type: 'string' },
  'master-socket': { type: 'string' },
  'stats-socket': { type: 'string' },
  listen: { type: 'string' },
  advertise: { type: 'string' },
  /** `namespace/name` of the HAProxyCfg to watch: its status names each new generation the moment it is committed. */
  'follow-resource': { type: 'string' },
  /** The kubeconfig for --follow-resource; the pod's service account when unset. */
  kubeconfig: { type: 'string' },
  poll: { type: 'string', default: '5s' },
  once: { type: 'boolean', default: false },
  /** Default `$POD_NAME`, else the host name. */
  pod: { type: 'string' },
} as const satisfies ParseArgsConfig['options']

/**
 * `hapedge agent --source URL --cluster ID --token TOKEN --dir DIR --master-socket PATH
 * [--stats-socket PATH] [--listen ADDR:PORT [--advertise URL]] [--follow-resource NS/NAME [--kubeconfig FILE]]
 * [--poll 5s] [--pod NAME] [--once]`: keeps DIR and the HAProxy beside it
 * (`haproxy -W -S <master> -f DIR/agent.cfg -f DIR/current`) on the cluster's newest
 * generation; `--once` writes it and exits, for an init container. The token may come from
 * `HAPEDGE_TOKEN` instead, to keep it out of `ps`.
 */
export async function agentCommand(args: string[]): Promise<number> {
  const parsed = parseOptions(args, agentOptions)
  const values = { ...parsed, pod: parsed.pod ?? process.env.POD_NAME ?? hostname().toLowerCase() }
  const token = values.token ?? process.env.HAPEDGE_TOKEN
  for (const [flag, value] of [['source', values.source], ['cluster', values.cluster], ['dir', values.dir], ['token', token]] as const) {
    if (!value) throw new UsageError(`--${flag} is required${flag === 'token' ? ' (or HAPEDGE_TOKEN)' : ''}`)
  }
  if (!isClusterId(values.cluster!)) throw new UsageError(`--cluster ${JSON.stringify(values.cluster)}: a DNS label`)
  if (!/^https?:\/\/[^/]+/.test(values.source!)) throw new UsageError(`--source ${values.source}: an http(s) URL of the hapedge function`)
  const pollMs = parseDuration('poll', values.poll)

  const context = { nodes: new NodeCache(64 * 1024 * 1024), hash: nodeSha256 }
  const source = { source: values.source!.replace(/\/+$/, ''), cluster: values.cluster!, token: token! }
  if (!podName.safeParse(values.pod).success) throw new UsageError(`--pod ${values.pod}: a pod name (a DNS subdomain)`)
  if (!values.once && !values['master-socket']) throw new UsageError('--master-socket PATH is required to follow the cluster (or --once to write the generation and exit)')
  const control: HaproxyControl | undefined = values.once
    ? undefined
    : await haproxyControl({ dir: values.dir!, statsSocket: values['stats-socket'] ?? join(values.dir!, 'stats.sock'), masterSocket: values['master-socket']!, binary: process.env.HAPROXY_BIN ?? 'haproxy' })
  const following = values['follow-resource'] === undefined ? undefined : namespacedName('follow-resource', values['follow-resource'], ' of an HAProxyCfg')
  const listen = values.listen === undefined ? undefined : listenAddress(values.listen)
  const advertised = values.advertise ?? (listen && advertisedUrl(listen))
  if (advertised !== undefined && !notifyUrl.safeParse(advertised).success) throw new UsageError(`--advertise ${advertised}: the http(s) URL the function can reach this agent's --listen address at`)
  const agent = new Agent(source, values.dir!, context, control, values.once ? undefined : statusReporter(source, values.pod, advertised))
  const status = await agent.sync()
  if (values.once) {
    if (status.lastError || !status.manifest) {
      console.error(`hapedge agent: ${status.lastError ?? `cluster ${values.cluster} has no generation yet`}`)
      return 1
    }
    console.log(`generation ${status.generation ?? '(installed)'} (${status.manifest}) written to ${values.dir}/current`)
    return 0
  }
  if (listen) serve({ fetch: agentApp(agent).fetch, hostname: listen.host, port: listen.port })
  if (following) {
    // Loaded only here: @kubernetes/client-node costs every other start about a second.
    const [{ loadKubeConfig }, { followHaproxyCfg }] = await Promise.all([import('./kube-config-flag.ts'), import('../kubernetes/watch-haproxycfg.ts')])
    followHaproxyCfg(loadKubeConfig(values.kubeconfig), following, () => void agent.sync(), {
      log: (line) => console.error(`hapedge agent: following HAProxyCfg ${following.namespace}/${following.name}: ${line}`),
    })
  }
  setInterval(() => void agent.sync(), pollMs)
  return new Promise<number>(() => {})
}

function listenAddress(value: string): { host: string; port: number } {
  const cut = value.lastIndexOf(':')
  const port = Number(value.slice(cut + 1))
  if (cut < 0 || !Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--listen ${value}: ADDR:PORT`)
  return { host: value.slice(0, cut).replace(/^\[|\]$/g, ''), port }
}

/** Where the function reaches this agent: the pod's IP (`POD_IP`, from the downward API) or the listen address itself. */
function advertisedUrl({ host, port }: { host: string; port: number }): string | undefined {
  const ip = process.env.POD_IP ?? (['0.0.0.0', '::', ''].includes(host) ? undefined : host)
  if (!ip) return undefined
  return `http://${ip.includes(':') ? `[${ip}]` : ip}:${port}`
}
