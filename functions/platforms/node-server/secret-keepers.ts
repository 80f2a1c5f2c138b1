import { join } from 'node:path'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { keptSecret } from './kept-secret.ts'
import { storeKeptSecret } from './store-kept-secret.ts'

/** Where a Node server keeps a secret its environment does not give (the admin token, the deployment secret), made on the first start. */
export interface SecretKeeper {
  /** The secret kept under `name`; made when missing and `make` is given, else undefined. */
  keep(name: string, make?: () => string): Promise<{ value: string; created: boolean } | undefined>
  /** Where `name` is kept, as the server's output says it. */
  where(name: string): string
}

/** Secrets in files of the data directory (see keptSecret). */
export function diskSecrets(dataDir: string): SecretKeeper {
  return { keep: (name, make) => keptSecret(join(dataDir, name), make), where: (name) => join(dataDir, name) }
}

/** Where a store keeps what belongs to the whole deployment (its secrets): beside the registry's records, outside every cluster's keys. */
export const DEPLOYMENT_PREFIX = 'registry/deployment/'

/** Secrets in objects of the store, created by conditional put (see storeKeptSecret); `location` names the store (`s3://bucket/prefix/`). */
export function storeSecrets(store: ObjectStore, location: string): SecretKeeper {
  const where = (name: string) => `${location}${DEPLOYMENT_PREFIX}${name}`
  return { keep: (name, make) => storeKeptSecret(store, DEPLOYMENT_PREFIX + name, where(name), make), where }
}
