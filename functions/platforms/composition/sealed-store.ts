import { sealAllPlaintext, type SealPlaintextOutcome } from '../../../core/sealing/seal-plaintext.ts'
import { sealingStore } from '../../../core/sealing/sealing-store.ts'
import type { AesGcm } from '../../../core/crypto/aes-gcm.ts'
import { Sealer } from '../../../core/crypto/sealer.ts'
import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import type { HashText } from '../../../core/hash.ts'
import { systemClock, type Clock } from '../../../core/ports/clock.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { ClusterDataKeys } from '../../../core/registry/cluster-data-keys.ts'
import { Registry } from '../../../core/registry/registry.ts'

/**
 * The store every platform's functions use (the app, scheduled garbage collection, `hapedge gc`):
 * with a deployment secret, each cluster's nodes and blobs sealed under its data key, found in
 * its registry record (and added there when the record has none); without one, `store` itself.
 */
export function sealedStore(
  store: ObjectStore,
  sealer: Sealer | DeploymentSecrets | undefined,
  hash: HashText,
  clock: Clock = systemClock,
  gcm?: AesGcm,
): ObjectStore {
  if (!sealer) return store
  const keys = new ClusterDataKeys(new Registry(store, hash, clock), sealer instanceof Sealer ? sealer : new Sealer(sealer), clock)
  return sealingStore(store, keys.keyOf, gcm)
}

/**
 * After a scheduled collection: seals, a budget per cluster and run, what clusters stored in the
 * clear before they had a data key (see sealPlaintext); logs each failure. Nothing without a secret.
 */
export async function sealLeftoverPlaintext(raw: ObjectStore, store: ObjectStore): Promise<SealPlaintextOutcome[]> {
  if (store === raw) return []
  const outcomes = await sealAllPlaintext(raw, store)
  for (const outcome of outcomes) if ('error' in outcome) console.error(`sealing what ${outcome.cluster} stored in the clear failed: ${outcome.error}`)
  return outcomes
}
