/** A cluster id names a storage prefix: a DNS label, so it can never climb out of `clusters/<id>/`. */
export const CLUSTER_ID = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/

export function isClusterId(id: string): boolean {
  return CLUSTER_ID.test(id)
}

/** Where one cluster's objects live: the same keys on local disk, S3 and R2. */
export function clusterKeys(cluster: string) {
  if (!isClusterId(cluster)) throw new Error(`invalid cluster id ${JSON.stringify(cluster)}: a DNS label (lowercase letters, digits, '-')`)
  const root = `clusters/${cluster}`
  return {
    root: `${root}/`,
    head: `${root}/HEAD`,
    /** Tree nodes by space: `nodes` (the model snapshot) and `blobs` (file content and manifests). */
    node: (space: string, sha256: string) => `${root}/${space}/${sha256}`,
    generations: `${root}/generations/`,
    generation: (n: number) => `${root}/generations/${String(n).padStart(12, '0')}`,
    /** Paged resync sessions (core/resync/): each session's record, and each page's listed keys and changed items. */
    resyncSessions: `${root}/resync/`,
    resyncSession: (session: string) => `${root}/resync/${session}/`,
    resyncRecord: (session: string) => `${root}/resync/${session}/session`,
    resyncPages: (session: string) => `${root}/resync/${session}/pages/`,
    resyncPageKeys: (session: string, page: number) => `${root}/resync/${session}/pages/${String(page).padStart(6, '0')}/keys`,
    resyncPageItems: (session: string, page: number) => `${root}/resync/${session}/pages/${String(page).padStart(6, '0')}/items`,
  }
}

export type ClusterKeys = ReturnType<typeof clusterKeys>
