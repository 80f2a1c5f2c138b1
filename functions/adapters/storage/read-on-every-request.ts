import { REGISTRY_PREFIX } from '../../../core/registry/registry.ts'

const CLUSTER_HEAD = /^clusters\/[^/]+\/HEAD$/

/**
 * hapedge's small objects that nearly every request reads: each cluster's HEAD (every commit and
 * every agent's poll) and the registry's records (every request's token). A disk store reads them
 * at once (DiskStoreOptions.readAtOnce).
 */
export const readOnEveryRequest = (key: string): boolean => CLUSTER_HEAD.test(key) || key.startsWith(REGISTRY_PREFIX)
