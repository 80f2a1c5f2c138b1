import { mkdir } from 'node:fs/promises'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { nodeAesGcm } from '../../adapters/crypto/node-aes-gcm.ts'
import { nodeGzip } from '../../adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../../adapters/hash/node-sha256.ts'
import { createDiskStore } from '../../adapters/storage/disk-store.ts'
import { clusterNodeStaging } from '../../adapters/storage/disk-staging.ts'
import { fairStore } from '../../adapters/storage/fair-store.ts'
import { readOnEveryRequest } from '../../adapters/storage/read-on-every-request.ts'
import { platformApp } from '../composition/platform-app.ts'
import { adminToken } from './admin-token.ts'
import { eventLoopBlocked } from './event-loop-blocked.ts'
import { nodeTurn } from './node-turn.ts'
import { nodeDeploymentSecrets } from './deployment-secret.ts'
import { diskSecrets, type SecretKeeper } from './secret-keepers.ts'
import { serverCacheBudget } from './server-cache.ts'
import { serverResyncBudget } from './server-resync-budget.ts'

/** What a Node server stores its clusters in, and where it keeps the secrets its environment does not give. */
export interface ServerStorage {
  store: ObjectStore
  secrets: SecretKeeper
}

/** A data directory on local disk, made if missing: clusters in it, secrets in files beside them. */
export async function diskStorage(dataDir: string): Promise<ServerStorage> {
  await mkdir(dataDir, { recursive: true })
  return { store: fairStore(createDiskStore({ root: dataDir, staging: clusterNodeStaging, readAtOnce: readOnEveryRequest })), secrets: diskSecrets(dataDir) }
}

/**
 * The functions as a Node server (`hapedge serve`): the app over `storage`, with the admin token
 * and the deployment secret from the environment or, unset, kept in the storage (made on the
 * first start, so the default path seals too). Each says where it came from.
 */
export async function nodeServer(storage: ServerStorage, environment: Record<string, string | undefined> = process.env) {
  const admin = await adminToken(storage.secrets, environment)
  const sealing = (await nodeDeploymentSecrets(storage.secrets, { create: true }, environment))!
  const app = platformApp({
    store: storage.store,
    adminToken: admin.token,
    hash: nodeSha256,
    gzip: nodeGzip,
    gcm: nodeAesGcm,
    cache: serverCacheBudget(),
    limits: { resync: serverResyncBudget() },
    secrets: sealing.secrets,
    gauges: [eventLoopBlocked()],
    yieldTurn: nodeTurn,
  })
  return { app, admin, sealing: { source: sealing.source } }
}
