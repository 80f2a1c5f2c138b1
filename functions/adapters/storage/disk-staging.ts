import { execFile } from 'node:child_process'
import { open, rename, rm, writeFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { syncDirectory } from './durable-file.ts'
import { tempPathFor } from './disk-paths.ts'

/**
 * Which puts a disk store may stage: objects nothing reaches until a later conditional put of
 * their group names them (content-addressed tree nodes and blobs, reached only through a
 * cluster's HEAD). `group` answers a key's group; `staged` whether its unconditional put may wait.
 */
export interface Staging {
  group(key: string): string
  staged(key: string): boolean
}

const CLUSTER_OBJECT = /^clusters\/([^/]+)\/(nodes|blobs)\//

/** hapedge's layout: a cluster's nodes and blobs wait for its next conditional put (HEAD's compare-and-swap). */
export const clusterNodeStaging: Staging = {
  group: (key) => (key.startsWith('clusters/') ? key.slice(0, key.indexOf('/', 'clusters/'.length) + 1) : ''),
  staged: (key) => CLUSTER_OBJECT.test(key),
}

/** Up to this many staged files are flushed one fsync each; more take one sync of the whole file system. */
const FSYNC_EACH = 64
const IN_FLIGHT = 32

/**
 * Puts written at once to a temp file beside their target, without an fsync, and made durable
 * and visible together when their group is flushed: fsync (each file, or `sync -f` of the file
 * system for many), rename into place, fsync the directories. A commit writes thousands of
 * nodes, and an fsync each was most of its time on local disk; the HEAD that names them is put
 * after the flush, so no committed state ever names a node a crash could lose. A reader in this
 * process sees a staged object at once (from its temp file).
 */
export class StagedPuts {
  /** Staged objects by target path: their temp file and group. */
  private readonly staged = new Map<string, { temp: string; group: string }>()
  private readonly groups = new Map<string, Set<string>>()

  constructor(private readonly root: string) {}

  /** Where the object at `path` is to be read from now: its staged temp file, or the path itself. */
  readable(path: string): string {
    return this.staged.get(path)?.temp ?? path
  }

  async put(group: string, path: string, bytes: Uint8Array): Promise<void> {
    const temp = tempPathFor(path)
    await writeFile(temp, bytes, { flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
      await mkdir(dirname(path), { recursive: true })
      await writeFile(temp, bytes, { flag: 'wx' })
    })
    const previous = this.staged.get(path)
    this.staged.set(path, { temp, group })
    const paths = this.groups.get(group) ?? new Set()
    paths.add(path)
    this.groups.set(group, paths)
    if (previous) await rm(previous.temp, { force: true })
  }

  /** Drops a staged object (its key deleted before it was flushed); true when there was one. */
  async drop(path: string): Promise<boolean> {
    const staged = this.staged.get(path)
    if (!staged) return false
    this.staged.delete(path)
    this.groups.get(staged.group)?.delete(path)
    await rm(staged.temp, { force: true })
    return true
  }

  /** Makes every object staged in `group` durable and puts it in place. */
  async flush(group: string): Promise<void> {
    const paths = [...(this.groups.get(group) ?? [])]
    this.groups.delete(group)
    if (paths.length === 0) return
    const moves = paths.map((path) => ({ path, temp: this.staged.get(path)!.temp }))
    for (const path of paths) this.staged.delete(path)
    if (moves.length <= FSYNC_EACH || !(await syncFileSystem(this.root))) await inBatches(moves, ({ temp }) => syncFile(temp))
    await inBatches(moves, ({ temp, path }) => rename(temp, path))
    await inBatches([...new Set(paths.map((path) => dirname(path)))], syncDirectory)
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r')
  await handle.sync().finally(() => handle.close())
}

/** `sync -f`: one syncfs(2) of the file system that holds `path`; false where there is none (not Linux coreutils). */
function syncFileSystem(path: string): Promise<boolean> {
  return new Promise((resolve) => execFile('sync', ['-f', path], (error) => resolve(!error)))
}

async function inBatches<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await run(items[i]!)
  }
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker))
}
