import { createApp } from '../../app/app.ts'
import { kubernetesWriters } from '../../adapters/kubernetes/cluster-writers.ts'
import { buildEnv, type EnvOptions } from './build-env.ts'

/**
 * The app as every platform runs it: over the platform's store, hash, cache budget, limits and secrets,
 * writing into clusters' API servers through the Kubernetes adapter (loaded when a cluster needs it).
 */
export function platformApp(options: Omit<EnvOptions, 'writers' | 'fetcher' | 'clock'>) {
  return createApp(buildEnv({ ...options, writers: kubernetesWriters }))
}
