import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { newToken } from '../../core/registry/tokens.ts'

/**
 * The admin token: `HAPEDGE_ADMIN_TOKEN` if set, else the one kept in the data directory,
 * made (readable by its owner only) on the first start.
 */
export async function adminToken(dataDir: string, environment = process.env): Promise<{ token: string; source: string }> {
  const fromEnvironment = environment.HAPEDGE_ADMIN_TOKEN
  if (fromEnvironment) return { token: fromEnvironment, source: 'HAPEDGE_ADMIN_TOKEN' }
  const path = join(dataDir, 'admin-token')
  try {
    return { token: (await readFile(path, 'utf8')).trim(), source: path }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const token = newToken()
  await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' })
  return { token, source: `${path} (new)` }
}
