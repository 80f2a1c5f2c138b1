import { join } from 'node:path'
import { encodeBase64url } from '../../../core/crypto/base64url.ts'
import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import { keptSecret } from './kept-secret.ts'

/**
 * The deployment secrets of a Node deployment on local disk: `HAPEDGE_SECRET` (and
 * `HAPEDGE_PREVIOUS_SECRET`) if set, else the secret kept in `<data>/deployment-secret`, made
 * (32 random bytes, readable by its owner only) when `create` is set and there is none yet. Kept
 * beside the data, it protects copies of `clusters/` made without it, not the directory itself.
 */
export async function nodeDeploymentSecrets(
  dataDir: string,
  options: { create: boolean },
  environment: Record<string, unknown> = process.env,
): Promise<{ secrets: DeploymentSecrets; source: string } | undefined> {
  const fromEnvironment = deploymentSecrets(environment)
  if (fromEnvironment) return { secrets: fromEnvironment, source: 'HAPEDGE_SECRET' }
  const path = join(dataDir, 'deployment-secret')
  const kept = await keptSecret(path, options.create ? () => encodeBase64url(crypto.getRandomValues(new Uint8Array(32))) : undefined)
  return kept && { secrets: { current: kept.value }, source: kept.created ? `${path} (new)` : path }
}
