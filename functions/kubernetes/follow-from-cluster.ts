import type { ResourceTarget } from '../../core/status/haproxycfg-resource.ts'

/**
 * Starts following an `HAProxyCfg` from inside the cluster (the pod's service account, or a
 * kubeconfig file), calling `changed` whenever it names another generation. Loads
 * `@kubernetes/client-node` only when asked to.
 */
export async function followFromCluster(target: ResourceTarget, kubeconfig: string | undefined, changed: () => void): Promise<{ stop(): void }> {
  const { KubeConfig } = await import('@kubernetes/client-node')
  const { followHaproxyCfg } = await import('./watch-haproxycfg.ts')
  const config = new KubeConfig()
  if (kubeconfig) config.loadFromFile(kubeconfig)
  else config.loadFromCluster()
  return followHaproxyCfg(config, target, changed, {
    log: (line) => console.error(`hapedge agent: following HAProxyCfg ${target.namespace}/${target.name}: ${line}`),
  })
}
