import type { ClusterWriterFactory } from '../../../core/ports/cluster-writer.ts'

/**
 * The function's writers into clusters' API servers. `@kubernetes/client-node` is loaded on the
 * first cluster that needs it, not when the process starts: most commands and most
 * deployments never do.
 */
export const kubernetesWriters: ClusterWriterFactory = async (credentials, cluster) => {
  const { kubeConfigFrom, kubernetesClusterWriter } = await import('./index.ts')
  return kubernetesClusterWriter({ kubeConfig: kubeConfigFrom(credentials), cluster })
}
