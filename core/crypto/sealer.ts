import { createClusterKey, needsRewrap, rewrapClusterKey, unwrapClusterKey } from './cluster-key.ts'
import { checkDeploymentSecret, deriveDeploymentKeys, type DeploymentKeys, type DeploymentSecrets } from './deployment-key.ts'
import { open, openBytes, seal } from './seal.ts'

export interface SealerOptions {
  /** How many unwrapped cluster keys to keep, least recently used dropped first (default 1024). */
  maxCachedKeys?: number
}

/**
 * Seals and opens values for any cluster, given the deployment secrets and the cluster's
 * wrapped key from its record. Secrets are checked when constructed, so a misconfigured
 * deployment fails at start; keys are derived on first use, and each cluster key is unwrapped
 * once per wrapped string (an unwrap is a WebCrypto call per value otherwise).
 */
export class Sealer {
  private deploymentKeys: Promise<DeploymentKeys> | undefined
  private readonly clusterKeys = new Map<string, Promise<CryptoKey>>()
  private readonly maxCachedKeys: number

  constructor(
    private readonly secrets: DeploymentSecrets,
    options: SealerOptions = {},
  ) {
    checkDeploymentSecret(secrets.current, 'the current deployment secret')
    if (secrets.previous) checkDeploymentSecret(secrets.previous, 'the previous deployment secret')
    this.maxCachedKeys = options.maxCachedKeys ?? 1024
  }

  /** A new cluster's wrapped data key, to store in its record. */
  async createClusterKey(): Promise<string> {
    return createClusterKey(await this.keys())
  }

  async seal(wrappedClusterKey: string, plaintext: string | Uint8Array, context: string): Promise<string> {
    return seal(await this.dataKey(wrappedClusterKey), plaintext, context)
  }

  async open(wrappedClusterKey: string, sealed: string, context: string): Promise<string> {
    return open(await this.dataKey(wrappedClusterKey), sealed, context)
  }

  async openBytes(wrappedClusterKey: string, sealed: string, context: string): Promise<Uint8Array> {
    return openBytes(await this.dataKey(wrappedClusterKey), sealed, context)
  }

  /** Whether the record's key is wrapped under the previous secret and should be rewrapped before that secret is retired. */
  async needsRewrap(wrappedClusterKey: string): Promise<boolean> {
    return needsRewrap(await this.keys(), wrappedClusterKey)
  }

  /** The record's key wrapped under the current secret (the same string when it already is). */
  async rewrap(wrappedClusterKey: string): Promise<string> {
    return rewrapClusterKey(await this.keys(), wrappedClusterKey)
  }

  private keys(): Promise<DeploymentKeys> {
    this.deploymentKeys ??= deriveDeploymentKeys(this.secrets)
    return this.deploymentKeys
  }

  /** The cluster's data key from its record's wrapped form, unwrapped once and cached: what sealed object bodies open with. */
  dataKey(wrapped: string): Promise<CryptoKey> {
    const cached = this.clusterKeys.get(wrapped)
    if (cached) {
      this.clusterKeys.delete(wrapped)
      this.clusterKeys.set(wrapped, cached)
      return cached
    }
    const unwrapping = this.keys().then((keys) => unwrapClusterKey(keys, wrapped))
    this.clusterKeys.set(wrapped, unwrapping)
    // A key that does not unwrap is not kept: the next call reports the failure afresh.
    unwrapping.catch(() => {
      if (this.clusterKeys.get(wrapped) === unwrapping) this.clusterKeys.delete(wrapped)
    })
    if (this.clusterKeys.size > this.maxCachedKeys) this.clusterKeys.delete(this.clusterKeys.keys().next().value!)
    return unwrapping
  }
}
