import type { KubeConfig } from '@kubernetes/client-node'
import { DEFAULT_OPTIONS } from '../../core/model/settings.ts'
import { Forwarder, FunctionClient, type WriteResult } from '../forwarder/index.ts'
import { StatusRelay } from '../forwarder/status-relay.ts'
import { kubernetesClusterWriter } from '../../functions/adapters/kubernetes/status-writer.ts'
import { defineCommand } from './command.ts'
import { parseDuration } from './duration.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { clusterFlag, sourceFlag } from './function-flags.ts'
import { loadKubeConfig } from './kube-config-flag.ts'
import { namespacedName } from './namespaced-name.ts'

/** The flags of `hapedge forward`; the manifests' tests parse the forwarder container's args with them. */
const forwardFlags = {
  source: { value: 'URL', required: true, description: 'the URL of the hapedge function' },
  cluster: { value: 'ID', required: true, description: 'the cluster this one is registered as' },
  token: { value: 'TOKEN', required: true, env: 'HAPEDGE_TOKEN', description: 'the cluster token, hpe.<cluster>.<secret>; the variable keeps it out of ps' },
  kubeconfig: { value: 'FILE', defaultNote: "the pod's service account", description: "how to reach the cluster's API server" },
  'config-map': { value: 'NAMESPACE/NAME', default: DEFAULT_OPTIONS.configMap, description: 'the ConfigMap of global settings to send' },
  resync: { value: 'DURATION', default: '30m', description: 'send every object again this often; 0 never' },
  'batch-delay': { value: 'DURATION', default: '75ms', description: 'how long a batch waits after its first event' },
  'write-status': { description: 'write the HAProxyCfg status and rejection Events from here, for a function that cannot reach the API server' },
  'status-resource': { value: 'NAMESPACE/NAME', defaultNote: 'hapedge/<cluster>', description: 'the HAProxyCfg --write-status writes' },
} as const satisfies FlagTable

/**
 * `hapedge forward --source URL --cluster ID --token TOKEN [--kubeconfig FILE]
 * [--config-map NAMESPACE/NAME] [--resync DURATION] [--batch-delay DURATION]
 * [--write-status [--status-resource NAMESPACE/NAME]]`: in the cluster,
 * lists and watches what hapedge reads and sends it to the function (a full resync first, then
 * batches of watch events). Without `--kubeconfig` it uses the pod's ServiceAccount. The token
 * may come from `HAPEDGE_TOKEN` instead, to keep it out of `ps`. Stops on SIGTERM or SIGINT
 * after sending what it holds.
 */
export const forwardCommand = defineCommand({
  flags: forwardFlags,
  example: 'HAPEDGE_TOKEN=hpe.prod-eu.… hapedge forward --source https://hapedge.example --cluster prod-eu --kubeconfig ~/.kube/config',
  run: forward,
})

async function forward(values: FlagValues<typeof forwardFlags>): Promise<number> {
  const cluster = clusterFlag(values.cluster)
  const source = sourceFlag(values.source)
  const configMap = namespacedName('config-map', values['config-map'])
  const resyncEveryMs = values.resync === '0' ? 0 : parseDuration('resync', values.resync)
  const delayMs = parseDuration('batch-delay', values['batch-delay'])

  const kubeConfig = loadKubeConfig(values.kubeconfig)
  const client = new FunctionClient({ source, cluster, token: values.token })
  const relay = values['write-status'] ? statusRelay(kubeConfig, client, cluster, values['status-resource'] ?? `hapedge/${cluster}`) : undefined
  const forwarder = new Forwarder({
    kubeConfig,
    client,
    ...(relay ? { onCommitted: (result: WriteResult) => relay.committed(result.rejected, result.warnings) } : {}),
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
  return new StatusRelay(client, writer, target, (line) => console.error(`hapedge forward: ${line}`))
}
