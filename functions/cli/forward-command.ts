import type { ParseArgsConfig } from 'node:util'
import type { KubeConfig } from '@kubernetes/client-node'
import { isClusterId } from '../../core/commit/cluster-keys.ts'
import { DEFAULT_OPTIONS } from '../../core/model/settings.ts'
import { Forwarder, FunctionClient, type WriteResult } from '../kubernetes/forwarder/index.ts'
import { StatusRelay } from '../kubernetes/forwarder/status-relay.ts'
import { kubernetesClusterWriter } from '../kubernetes/status-writer.ts'
import { parseDuration } from './duration.ts'
import { loadKubeConfig } from './kube-config-flag.ts'
import { namespacedName } from './namespaced-name.ts'
import { parseOptions, UsageError } from './usage-error.ts'

/** The flags of `hapedge forward`, as `parseArgs` takes them; the manifests' tests parse the forwarder container's args with them. */
export const forwardOptions = {
  source: { type: 'string' },
  cluster: { type: 'string' },
  token: { type: 'string' },
  kubeconfig: { type: 'string' },
  'config-map': { type: 'string', default: DEFAULT_OPTIONS.configMap },
  resync: { type: 'string', default: '30m' },
  'batch-delay': { type: 'string', default: '75ms' },
  /** Write the HAProxyCfg status (and rejection Events) from here, for a function that cannot reach the API server. */
  'write-status': { type: 'boolean', default: false },
  /** The HAProxyCfg to write: NAMESPACE/NAME, default hapedge/<cluster>. */
  'status-resource': { type: 'string' },
} as const satisfies ParseArgsConfig['options']

/**
 * `hapedge forward --source URL --cluster ID --token TOKEN [--kubeconfig FILE]
 * [--config-map NAMESPACE/NAME] [--resync DURATION] [--batch-delay DURATION]
 * [--write-status [--status-resource NAMESPACE/NAME]]`: in the cluster,
 * lists and watches what hapedge reads and sends it to the function (a full resync first, then
 * batches of watch events). Without `--kubeconfig` it uses the pod's ServiceAccount. The token
 * may come from `HAPEDGE_TOKEN` instead, to keep it out of `ps`. Stops on SIGTERM or SIGINT
 * after sending what it holds.
 */
export async function forwardCommand(args: string[]): Promise<number> {
  const values = parseOptions(args, forwardOptions)
  const token = values.token ?? process.env.HAPEDGE_TOKEN
  for (const [flag, value] of [['source', values.source], ['cluster', values.cluster], ['token', token]] as const) {
    if (!value) throw new UsageError(`--${flag} is required${flag === 'token' ? ' (or HAPEDGE_TOKEN)' : ''}`)
  }
  if (!isClusterId(values.cluster!)) throw new UsageError(`--cluster ${JSON.stringify(values.cluster)}: a DNS label`)
  if (!/^https?:\/\/[^/]+/.test(values.source!)) throw new UsageError(`--source ${values.source}: an http(s) URL of the hapedge function`)
  const configMap = namespacedName('config-map', values['config-map'])
  const resyncEveryMs = values.resync === '0' ? 0 : parseDuration('resync', values.resync)
  const delayMs = parseDuration('batch-delay', values['batch-delay'])

  const kubeConfig = loadKubeConfig(values.kubeconfig)
  const client = new FunctionClient({ source: values.source!.replace(/\/+$/, ''), cluster: values.cluster!, token: token! })
  const relay = values['write-status'] ? statusRelay(kubeConfig, client, values.cluster!, values['status-resource'] ?? `hapedge/${values.cluster}`) : undefined
  const forwarder = new Forwarder({
    kubeConfig,
    client,
    ...(relay ? { onCommitted: (result: WriteResult) => relay.committed(result.rejected) } : {}),
    configMap,
    resyncEveryMs,
    delivery: { delayMs },
  })
  const signalled = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'))
    process.once('SIGINT', () => resolve('SIGINT'))
  })
  const started = forwarder.start()
  const first = await Promise.race([started.then(() => undefined), signalled])
  if (!first) console.log(`hapedge forward: watching for cluster ${values.cluster}, sending to ${values.source}`)
  const signal = first ?? (await signalled)
  console.log(`hapedge forward: ${signal}, sending what is pending and stopping`)
  await forwarder.stop()
  await relay?.settled()
  if (!forwarder.pending) return 0
  console.error('hapedge forward: stopped with changes the function has not taken; the next start sends a full resync')
  return 1
}

function statusRelay(kubeConfig: KubeConfig, client: FunctionClient, cluster: string, resource: string): StatusRelay {
  const target = namespacedName('status-resource', resource)
  const writer = kubernetesClusterWriter({ kubeConfig, cluster })
  return new StatusRelay(() => client.status(), writer, target, (line) => console.error(`hapedge forward: ${line}`))
}
