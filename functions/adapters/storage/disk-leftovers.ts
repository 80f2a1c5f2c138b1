import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isReservedName } from './disk-paths.ts'

/**
 * What a crash leaves under a disk store's root: the temp file of a write that never got its name
 * (`.~tmp-…`, from a put or a kept secret), and a stale lock moved aside and not yet deleted
 * (`.~lock-….stale`). Neither is ever a key nor listed, so nothing else would delete them.
 */
const isLeftover = (name: string) => isReservedName(name) && (name.startsWith('.~tmp-') || name.endsWith('.stale'))

/**
 * Deletes the leftovers last written before `cutoff` anywhere under `root`, and answers their
 * paths. A younger one may be a write in flight, so the cutoff is a grace period ago, as for the
 * objects garbage collection deletes.
 */
export async function removeLeftovers(root: string, cutoff: Date): Promise<string[]> {
  const removed: string[] = []
  const walk = async (dir: string): Promise<void> => {
    // A directory or file gone meanwhile (a cluster purged, a write finished) is simply passed by.
    for (const entry of (await readdir(dir, { withFileTypes: true }).catch(unlessGone)) ?? []) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile() && isLeftover(entry.name) && ((await stat(path).catch(unlessGone))?.mtime ?? cutoff) < cutoff) {
        await rm(path, { force: true })
        removed.push(path)
      }
    }
  }
  await walk(root)
  return removed
}

function unlessGone(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
  throw error
}
