import { join } from 'node:path'
import { newToken } from '../../../core/registry/tokens.ts'
import { keptSecret } from './kept-secret.ts'

/**
 * The admin token: `HAPEDGE_ADMIN_TOKEN` if set, else the one kept in the data directory,
 * made (readable by its owner only) on the first start.
 */
export async function adminToken(dataDir: string, environment = process.env): Promise<{ token: string; source: string }> {
  const fromEnvironment = environment.HAPEDGE_ADMIN_TOKEN
  if (fromEnvironment) return { token: fromEnvironment, source: 'HAPEDGE_ADMIN_TOKEN' }
  const path = join(dataDir, 'admin-token')
  const kept = (await keptSecret(path, () => newToken()))!
  return { token: kept.value, source: kept.created ? `${path} (new)` : path }
}
