import { execFile } from 'node:child_process'
import { mkdirSync, writeFile, writeFileSync } from 'node:fs'
import { mkdir, open, rename, rm } from 'node:fs/promises'
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
 * A group's first staged files since its last flush are written synchronously, past libuv's four threads, which
 * the fsyncs of other writes hold: a commit of one event stages 11 to 19 nodes, and through the threads
 * (open, write, close: three turns each) they took 8–15 ms on a busy two-core machine, written at once 4–7 ms.
 * Beyond these, a resync's thousands go through the threads, so that no write blocks the event loop for long.
 */
const WRITTEN_AT_ONCE = 32

/**
 * Puts written at once without an fsync, and made durable together when their group is flushed:
 * fsync (each file, or `sync -f` of the file system for many), then the directories. A commit
 * writes thousands of nodes, and an fsync each was most of its time on local disk; the HEAD that
 * names them is put after the flush, so no committed state ever names a node a crash could lose.
 *
 * A put whose name is free is written in place (created exclusively: no temp file, no rename,
 * the file system's costliest operations per node here). Nothing can name it before the flush,
 * so a crash that cuts it short leaves only an unnamed leftover, which garbage collection
 * deletes, and which the next put of that key replaces. A put whose name is taken (a committed
 * object, such a leftover, or a put staged before) goes to a temp file beside it, renamed over
 * it at the flush, so a reader of the name sees the old or the new object whole. A reader in
 * this process sees a staged object at once.
 */
export class StagedPuts {
  /** Staged objects by target path: their group, and the temp file of one written beside its name. */
  private readonly staged = new Map<string, { group: string; temp?: string }>()
  private readonly groups = new Map<string, Set<string>>()
  /** Per group, the puts begun since its last flush: the first WRITTEN_AT_ONCE are written at once. */
  private readonly begun = new Map<string, number>()

  constructor(private readonly root: string) {}

  /** Where the object at `path` is to be read from now: its staged temp file, or the path itself. */
  readable(path: string): string {
    return this.staged.get(path)?.temp ?? path
  }

  async put(group: string, path: string, bytes: Uint8Array): Promise<void> {
    const previous = this.staged.get(path)
    const begun = this.begun.get(group) ?? 0
    this.begun.set(group, begun + 1)
    const atOnce = begun < WRITTEN_AT_ONCE
    const temp = (await createFile(path, bytes, { atOnce })) ? undefined : tempPathFor(path)
    if (temp) await createFile(temp, bytes, { atOnce, mustCreate: true })
    this.staged.set(path, temp ? { group, temp } : { group })
    const paths = this.groups.get(group) ?? new Set()
    paths.add(path)
    this.groups.set(group, paths)
    if (previous?.temp) await rm(previous.temp, { force: true })
  }

  /** Drops a staged object (its key deleted before it was flushed); true when there was one. */
  async drop(path: string): Promise<boolean> {
    const staged = this.staged.get(path)
    if (!staged) return false
    this.staged.delete(path)
    this.groups.get(staged.group)?.delete(path)
    if (staged.temp) await rm(staged.temp, { force: true })
    return true
  }

  /** Makes every object staged in `group` durable and puts it in place. */
  async flush(group: string): Promise<void> {
    const paths = [...(this.groups.get(group) ?? [])]
    this.groups.delete(group)
    this.begun.delete(group)
    if (paths.length === 0) return
    const written = paths.map((path) => ({ path, temp: this.staged.get(path)!.temp }))
    for (const path of paths) this.staged.delete(path)
    if (written.length <= FSYNC_EACH || !(await syncFileSystem(this.root))) await inBatches(written, ({ path, temp }) => syncFile(temp ?? path))
    await inBatches(written, ({ path, temp }) => (temp ? rename(temp, path) : Promise.resolve()))
    await inBatches([...new Set(paths.map((path) => dirname(path)))], syncDirectory)
  }
}

/**
 * Creates the file at `path` holding `bytes` (its directory too, when missing), synchronously when `atOnce`; false
 * when the name is taken, unless `mustCreate`. The callback API: a FileHandle per file cost more than its write.
 */
async function createFile(path: string, bytes: Uint8Array, { atOnce = false, mustCreate = false } = {}): Promise<boolean> {
  const create = atOnce
    ? async () => writeFileSync(path, bytes, { flag: 'wx' })
    : () => new Promise<void>((done, fail) => writeFile(path, bytes, { flag: 'wx' }, (error) => (error ? fail(error) : done())))
  try {
    await create().catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
      if (atOnce) mkdirSync(dirname(path), { recursive: true })
      else await mkdir(dirname(path), { recursive: true })
      await create()
    })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !mustCreate) return false
    throw error
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
