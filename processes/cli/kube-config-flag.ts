import { KubeConfig } from '@kubernetes/client-node'
import { UsageError } from './usage-error.ts'

/** The KubeConfig a `--kubeconfig FILE` flag names, or the pod's service account when it is unset (inside a cluster only). */
export function loadKubeConfig(file: string | undefined): KubeConfig {
  const config = new KubeConfig()
  try {
    if (file) config.loadFromFile(file)
    else if (process.env.KUBERNETES_SERVICE_HOST) config.loadFromCluster()
    else throw new UsageError('not running in a cluster (no KUBERNETES_SERVICE_HOST): give --kubeconfig FILE')
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`--kubeconfig ${file}: ${(error as Error).message}`)
  }
  if (!config.getCurrentCluster()) throw new UsageError(`--kubeconfig ${file}: no current cluster`)
  return config
}
