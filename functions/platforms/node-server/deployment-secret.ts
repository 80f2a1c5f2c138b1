import { encodeBase64url } from '../../../core/crypto/base64url.ts'
import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import type { SecretKeeper } from './secret-keepers.ts'

/**
 * The deployment secrets of a Node deployment: `HAPEDGE_SECRET` (and `HAPEDGE_PREVIOUS_SECRET`)
 * if set, else the secret the keeper holds as `deployment-secret` (in the data directory, or in
 * the store), made (32 random bytes) when `create` is set and there is none yet. Kept beside the
 * data, it protects copies of `clusters/` made without it, not the data itself.
 */
export async function nodeDeploymentSecrets(
  keeper: SecretKeeper,
  options: { create: boolean },
  environment: Record<string, unknown> = process.env,
): Promise<{ secrets: DeploymentSecrets; source: string } | undefined> {
  const fromEnvironment = deploymentSecrets(environment)
  if (fromEnvironment) return { secrets: fromEnvironment, source: 'HAPEDGE_SECRET' }
  const kept = await keeper.keep('deployment-secret', options.create ? () => encodeBase64url(crypto.getRandomValues(new Uint8Array(32))) : undefined)
  const where = keeper.where('deployment-secret')
  return kept && { secrets: { current: kept.value }, source: kept.created ? `${where} (new)` : where }
}
