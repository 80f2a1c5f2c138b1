import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'

/** The deployment secrets from a platform's environment (`HAPEDGE_SECRET`, and `HAPEDGE_PREVIOUS_SECRET` while rotating); none when unset. */
export function deploymentSecrets(environment: Record<string, unknown>): DeploymentSecrets | undefined {
  const current = environment.HAPEDGE_SECRET
  if (typeof current !== 'string' || current === '') return undefined
  const previous = environment.HAPEDGE_PREVIOUS_SECRET
  return { current, ...(typeof previous === 'string' && previous !== '' ? { previous } : {}) }
}
