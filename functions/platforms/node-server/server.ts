import { mkdir } from 'node:fs/promises'
import { nodeGzip } from '../../adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { createDiskStore } from '../../adapters/storage/disk-store.ts'
import { clusterNodeStaging } from '../../adapters/storage/disk-staging.ts'
import { fairStore } from '../../adapters/storage/fair-store.ts'
import { platformApp } from '../composition/platform-app.ts'
import { adminToken } from './admin-token.ts'
import { nodeDeploymentSecrets } from './deployment-secret.ts'

/**
 * A long-lived server keeps many clusters warm: one budget over all of them, so a fleet of small
 * clusters stays cached where a fixed count (16) sent most events to a cold cache.
 */
const SERVER_CACHE = { perCluster: 64 * 1024 * 1024, clusters: 4096, total: 256 * 1024 * 1024 }

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
    cache: SERVER_CACHE,
    secrets: sealing.secrets,
  })
  return { app, admin, sealing: { source: sealing.source } }
}
