import { mkdir } from 'node:fs/promises'
import { nodeGzip } from '../../adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { createDiskStore } from '../../adapters/storage/disk-store.ts'
import { clusterNodeStaging } from '../../adapters/storage/disk-staging.ts'
import { fairStore } from '../../adapters/storage/fair-store.ts'
import { platformApp } from '../composition/platform-app.ts'
import { adminToken } from './admin-token.ts'
import { nodeDeploymentSecrets } from './deployment-secret.ts'
import { serverCacheBudget } from './server-cache.ts'

/**
 * The functions as a Node server on local disk (`hapedge serve`): the app over `dataDir`, made if
 * missing, with the admin token and the deployment secret from the environment or, unset, kept
 * in `dataDir` (made on the first start, so the default path seals too). Each says where it came from.
 */
export async function nodeServer(dataDir: string, environment: Record<string, string | undefined> = process.env) {
  await mkdir(dataDir, { recursive: true })
  const admin = await adminToken(dataDir, environment)
  const sealing = (await nodeDeploymentSecrets(dataDir, { create: true }, environment))!
  const app = platformApp({
    store: fairStore(createDiskStore({ root: dataDir, staging: clusterNodeStaging })),
    adminToken: admin.token,
    hash: nodeSha256,
    gzip: nodeGzip,
    cache: serverCacheBudget(),
    secrets: sealing.secrets,
  })
  return { app, admin, sealing: { source: sealing.source } }
}
