import { newToken } from '../../../core/registry/tokens.ts'
import type { SecretKeeper } from './secret-keepers.ts'

/**
 * The admin token: `HAPEDGE_ADMIN_TOKEN` if set, else the one the keeper holds (a file of the
 * data directory, readable by its owner only; an object of the store), made on the first start.
 */
export async function adminToken(
  keeper: SecretKeeper,
  environment: Record<string, string | undefined> = process.env,
): Promise<{ token: string; source: string }> {
  const fromEnvironment = environment.HAPEDGE_ADMIN_TOKEN
  if (fromEnvironment) return { token: fromEnvironment, source: 'HAPEDGE_ADMIN_TOKEN' }
  const kept = (await keeper.keep('admin-token', () => newToken()))!
  const where = keeper.where('admin-token')
  return { token: kept.value, source: kept.created ? `${where} (new)` : where }
}
