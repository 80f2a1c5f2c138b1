import { hostname } from 'node:os'
import { join } from 'node:path'
import { NodeCache } from '../../core/tree/node-cache.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { Agent } from '../agent/agent.ts'
import { followingLine, type AgentLog } from '../agent/agent-log.ts'
import { haproxyCheck } from '../agent/config-check.ts'
import { agentApp } from '../agent/agent-app.ts'
import { AGENT_CONFIG, haproxyControl, writeAgentConfig } from '../agent/haproxy-control.ts'
import type { SourceOptions } from '../agent/pull-generation.ts'
import { statusReporter } from '../agent/report-status.ts'
import { SignedHeads } from '../agent/signed-heads.ts'
import { notifyUrl } from '../../core/registry/agent-origins.ts'
import { podName } from '../../core/registry/agent-report.ts'
import { nodeSha256 } from '../../functions/adapters/hash/node-sha256.ts'
import { defineCommand } from './command.ts'
import { parseDuration } from './duration.ts'
import { requireDirectory } from './existing-directory.ts'
import { clusterFlag, sourceFlag } from './function-flags.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { listen } from './listen.ts'
import { namespacedName } from './namespaced-name.ts'
import { UsageError } from './usage-error.ts'

/** The flags of `hapedge agent`; the manifests' tests parse the agent containers' args with them. */
const agentFlags = {
  source: { value: 'URL', required: true, description: 'the URL of the hapedge function' },
  cluster: { value: 'ID', required: true, description: 'the cluster to follow' },
  token: { value: 'TOKEN', required: true, env: 'HAPEDGE_TOKEN', description: 'the cluster token, hpe.<cluster>.<secret>; the variable keeps it out of ps' },
  dir: { value: 'DIR', required: true, description: 'an existing directory for the generations; HAProxy runs DIR/current' },
  'master-socket': { value: 'PATH', required: { unless: 'once' }, description: "HAProxy's master CLI socket, for reloads: haproxy -W -S PATH" },
  'stats-socket': { value: 'PATH', defaultNote: 'DIR/stats.sock', description: 'the admin stats socket for runtime changes, declared in DIR/agent.cfg' },
  listen: { value: 'ADDR:PORT', description: "take the function's pushes (POST /notify) and answer GET /status here" },
  advertise: { value: 'URL', defaultNote: 'http://$POD_IP:PORT, else the --listen address', description: 'where the function pushes to, as reported to it' },
  'follow-resource': { value: 'NAMESPACE/NAME', description: 'watch this HAProxyCfg, whose status names each new generation the moment it is committed' },
  kubeconfig: { value: 'FILE', defaultNote: "the pod's service account", description: 'the kubeconfig for --follow-resource' },
  poll: { value: 'DURATION', default: '5s', description: 'ask the function for its newest generation this often' },
  once: { description: 'write the current generation into DIR, and DIR/agent.cfg, and exit, as an init container' },
  pod: { value: 'NAME', env: 'POD_NAME', defaultNote: 'the host name', description: 'the name this agent reports its generation under' },
} as const satisfies FlagTable

/**
 * `hapedge agent --source URL --cluster ID --token TOKEN --dir DIR --master-socket PATH
 * [--stats-socket PATH] [--listen ADDR:PORT [--advertise URL]] [--follow-resource NS/NAME [--kubeconfig FILE]]
 * [--poll 5s] [--pod NAME] [--once]`: keeps DIR and the HAProxy beside it
 * (`haproxy -W -S <master> -f DIR/agent.cfg -f DIR/current`) on the cluster's newest
 * generation; `--once` writes it and exits, for an init container. The token may come from
 * `HAPEDGE_TOKEN` instead, to keep it out of `ps`.
 */
export const agentCommand = defineCommand({
  flags: agentFlags,
  example: 'HAPEDGE_TOKEN=hpe.prod-eu.… hapedge agent --source https://hapedge.example --cluster prod-eu --dir /etc/haproxy/hapedge --once',
  environment: {
    POD_IP: "the pod's address, for the default --advertise",
    HAPROXY_BIN: 'the haproxy that checks a generation before a reload (default: haproxy on PATH)',
  },
  run: follow,
})

async function follow(values: FlagValues<typeof agentFlags>): Promise<number> {
  const pod = values.pod ?? hostname().toLowerCase()
  const cluster = clusterFlag(values.cluster)
  const functionUrl = sourceFlag(values.source)
  const pollMs = parseDuration('poll', values.poll)
  if (!podName.safeParse(pod).success) throw new UsageError(`--pod ${pod}: a pod name (a DNS subdomain)`)
  const following = values['follow-resource'] === undefined ? undefined : namespacedName('follow-resource', values['follow-resource'], ' of an HAProxyCfg')
  const listenAt = values.listen === undefined ? undefined : listenAddress(values.listen)
  const advertised = values.advertise ?? (listenAt && advertisedUrl(listenAt))
  if (advertised !== undefined && !notifyUrl.safeParse(advertised).success)
    throw new UsageError(`--advertise ${advertised}: the http(s) URL the function can reach this agent's --listen address at`)
  await requireDirectory('--dir', values.dir, `--dir ${values.dir} does not exist: create it (mkdir -p ${values.dir}) or mount a volume there`)

  const context = { nodes: new NodeCache(64 * 1024 * 1024), hash: nodeSha256 }
  const source = { source: functionUrl, cluster, token: values.token }
  const binary = process.env.HAPROXY_BIN ?? 'haproxy'
  const statsSocket = values['stats-socket'] ?? join(values.dir, 'stats.sock')
  if (values.once) return once(source, values.dir, context, statsSocket, binary)

  const control = await haproxyControl({ dir: values.dir, statsSocket, masterSocket: values['master-socket']!, binary })
  const signed = listenAt && new SignedHeads(cluster)
  const agent = new Agent(source, values.dir, context, control, statusReporter(source, pod, { notifyUrl: advertised, log, signed }), log)
  // Listening before the first sync, so that no push is missed while it runs.
  const listening =
    listenAt && (await listen(agentApp(agent, signed).fetch, listenAt, { portFlag: '--listen', hostFlag: '--listen', usualHolder: 'another agent?' })).address
  log(followingLine({ ...source, push: listening && { listen: listening, advertised }, watch: following, poll: values.poll }), 'info')
  void agent.sync('start')
  if (following) {
    // Loaded only here: @kubernetes/client-node costs every other start about a second.
    const [{ loadKubeConfig }, { followHaproxyCfg }] = await Promise.all([
      import('./kube-config-flag.ts'),
      import('../../functions/adapters/kubernetes/watch-haproxycfg.ts'),
    ])
    followHaproxyCfg(loadKubeConfig(values.kubeconfig), following, () => void agent.sync('watch'), {
      log: (line) => console.error(`hapedge agent: following HAProxyCfg ${following.namespace}/${following.name}: ${line}`),
    })
  }
  setInterval(() => void agent.sync('poll'), pollMs)
  return new Promise<number>(() => {})
}

/** What the agent says: a generation taken on stdout, an error on stderr, each line named as the agent's among HAProxy's and the backends' in one terminal. */
const log: AgentLog = (line, level) => (level === 'error' ? console.error : console.log)(`hapedge agent: ${line}`)

/**
 * `--once`: the current generation written into DIR/current (checked by `haproxy -c` where a
 * binary runs), and DIR/agent.cfg beside it, so HAProxy can start right after; exit 1 when
 * there is none or HAProxy refuses it.
 */
async function once(source: SourceOptions, dir: string, context: TreeContext, statsSocket: string, binary: string): Promise<number> {
  const check = await haproxyCheck(binary)
  if (!check) console.error(`hapedge agent: ${binary} does not run here, so the generation is written without haproxy -c`)
  const status = await new Agent(source, dir, context, check).sync('start')
  if (status.lastError || !status.manifest) {
    console.error(`hapedge agent: ${status.lastError ?? `cluster ${source.cluster} has no generation yet`}`)
    return 1
  }
  await writeAgentConfig(dir, statsSocket)
  console.log(`generation ${status.generation ?? '(installed)'} (${status.manifest}) written to ${dir}/current, with ${join(dir, AGENT_CONFIG)}`)
  return 0
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
