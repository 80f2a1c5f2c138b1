import { randomBytes } from 'node:crypto'
import { link, open, readFile, rename, rm, stat } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { holderAlive, thisHolder } from './lock-holder.ts'

export interface LockTiming {
  /** A lock older than this whose holder is gone (an exited or earlier process, or another host) is broken. */
  staleMs: number
  /** How long to wait for a lock before giving up. */
  timeoutMs: number
}

/**
 * Runs `fn` holding the lock file at `lockPath`, created with O_EXCL so that one holder at a time
 * exists across every process (and host, on a shared file system) that uses the same root.
 */
export async function withLock<T>(lockPath: string, timing: LockTiming, fn: () => Promise<T>): Promise<T> {
  await acquire(lockPath, timing)
  try {
    return await fn()
  } finally {
    await rm(lockPath, { force: true })
  }
}

async function acquire(lockPath: string, timing: LockTiming): Promise<void> {
  const deadline = Date.now() + timing.timeoutMs
  const holder = await thisHolder()
  for (let backoff = 1; ; backoff = Math.min(backoff * 2, 50)) {
    try {
      const handle = await open(lockPath, 'wx')
      await handle.writeFile(holder).finally(() => handle.close())
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (await breakIfStale(lockPath, timing.staleMs)) continue
    if (Date.now() > deadline) throw new Error(`lock ${lockPath} still held after ${timing.timeoutMs} ms`)
    await sleep(backoff * (0.5 + Math.random()))
  }
}

/** True when the lock is gone now (broken here, or released meanwhile), so acquiring may retry at once. */
async function breakIfStale(lockPath: string, staleMs: number): Promise<boolean> {
  const seen = await stat(lockPath).catch(() => undefined)
  if (!seen) return true
  if (Date.now() - seen.mtimeMs < staleMs) return false
  if (await holderAlive(await readFile(lockPath, 'utf8').catch(() => ''))) return false
  // Move it aside before deleting: two breakers of one stale lock must not delete a fresh one.
  const aside = `${lockPath}.${randomBytes(6).toString('hex')}.stale`
  if (
    !(await rename(lockPath, aside).then(
      () => true,
      () => false,
    ))
  )
    return true
  if ((await stat(aside)).ino !== seen.ino) await link(aside, lockPath).catch(() => undefined)
  await rm(aside, { force: true })
  return true
}
