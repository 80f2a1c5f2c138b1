import { createHash } from 'node:crypto'
import { createReadStream, readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { toBytes } from '../../../core/hash.ts'
import { StorageError } from '../../../core/ports/object-store.ts'
import type { ListedObject, ObjectStore } from '../../../core/ports/object-store.ts'
import { compareKeys } from './compare-keys.ts'
import { conditionHolds } from './condition-holds.ts'
import { withLock } from './disk-lock.ts'
import type { LockTiming } from './disk-lock.ts'
import { isReservedName, keyPath, lockPathFor, prefixDirectory, tempPathFor } from './disk-paths.ts'
import { syncDirectory, writeDurably } from './durable-file.ts'
import { StagedPuts, type Staging } from './disk-staging.ts'

export interface DiskStoreOptions {
  /** The directory that holds every object, as files at the keys' relative paths. */
  root: string
  /** Per-key lock timing; the defaults suit a local disk. */
  lock?: Partial<LockTiming>
  /** Puts that may be staged until their group's next conditional put (see StagedPuts); none by default. */
  staging?: Staging
  /**
   * Keys read synchronously (get, head, and a compare-and-swap's read): small objects read on nearly every request, such
   * as HEAD and the registry's records. libuv's four threads are held by the commits' fsyncs, behind which an asynchronous
   * read of a file of a few hundred bytes (open, stat, read, close: four turns of the pool) waited 1–3 ms on the path of
   * every event; read at once it costs the event loop some 30 µs. None by default.
   */
  readAtOnce?: (key: string) => boolean
}

const DEFAULT_LOCK: LockTiming = { staleMs: 5_000, timeoutMs: 15_000 }
/** Errors that mean "no object at this key": the file, or a directory on its path, is missing. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR'])

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Objects as files under a root directory. A put writes a temp file beside the target, fsyncs it
 * and renames it over the target, so readers see the old or the new object whole; a conditional
 * put does its check and rename under a per-key lock file, a compare-and-swap across processes.
 * (An unconditional put takes no lock: most are content-addressed nodes and blobs, and a lock
 * file made and removed for each was two more journaled file operations per object.) With
 * `staging`, the puts it names are written unsynced, in place where their name is free, and their
 * group's next conditional put first makes them durable and renames the others into place
 * (StagedPuts). The etag is the content's SHA-256.
 */
export function createDiskStore(options: DiskStoreOptions): ObjectStore {
  if (!options.root) throw new Error('disk store: options.root is required')
  const root = resolve(options.root)
  const timing = { ...DEFAULT_LOCK, ...options.lock }
  const { staging } = options
  const staged = new StagedPuts(root)
  const atOnce = options.readAtOnce ?? (() => false)
  /** The content's etag, undefined when there is no object: read as the key asks. */
  const etagOf = (key: string, path: string) => (atOnce(key) ? etagNow(path) : fileEtag(path).catch(missingAsUndefined))

  /** Runs `fn` with the key's path, turning a refused key or a failure into a StorageError. */
  async function at<T>(operation: StorageError['operation'], key: string, fn: (path: string) => Promise<T>): Promise<T | undefined> {
    try {
      return await fn(keyPath(root, key))
    } catch (error) {
      if (MISSING.has((error as NodeJS.ErrnoException).code ?? '') && operation !== 'put') return undefined
      throw new StorageError(operation, key, error)
    }
  }

  return {
    get: (key) =>
      at('get', key, async (path) => {
        const readable = staged.readable(path)
        const body = new Uint8Array(atOnce(key) ? readFileSync(readable) : await readFile(readable))
        return { body, etag: sha256(body), size: body.length }
      }),
    head: (key) =>
      at('head', key, async (path) => {
        const readable = staged.readable(path)
        if (atOnce(key)) {
          const body = readFileSync(readable)
          return { etag: sha256(body), size: body.length }
        }
        const { size } = await stat(readable)
        return { etag: await fileEtag(readable), size }
      }),
    put: (key, body, condition) =>
      at('put', key, async (path) => {
        const bytes = toBytes(body)
        if (staging && !condition && staging.staged(key)) {
          await staged.put(staging.group(key), path, bytes)
          return sha256(bytes)
        }
        // What this conditional put may name is made durable first.
        if (staging && condition) await staged.flush(staging.group(key))
        const temp = tempPathFor(path)
        await writeDurably(temp, bytes).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error
          await mkdir(dirname(path), { recursive: true })
          await writeDurably(temp, bytes)
        })
        try {
          const swap = async () => {
            if (condition && !conditionHolds(condition, await etagOf(key, path))) return false
            await rename(temp, path)
            // HEAD moves by conditional puts: make its new name survive a crash before answering.
            if (condition) await syncDirectory(dirname(path))
            return true
          }
          // A rename replaces a name atomically: only a compare-and-swap needs the lock, to read and replace as one step.
          const replaced = condition ? await withLock(lockPathFor(path), timing, swap) : await swap()
          if (!replaced) await rm(temp, { force: true })
          return replaced ? sha256(bytes) : undefined
        } catch (error) {
          await rm(temp, { force: true })
          throw error
        }
      }),
    list: (prefix) => listFiles(root, prefix),
    async delete(keys) {
      for (const key of keys)
        await at('delete', key, async (path) => {
          await staged.drop(path)
          await withLock(lockPathFor(path), timing, () => rm(path, { force: true }))
        })
    },
  }
}

function fileEtag(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject)
  })
}

function etagNow(path: string): string | undefined {
  try {
    return sha256(readFileSync(path))
  } catch (error) {
    return missingAsUndefined(error as NodeJS.ErrnoException)
  }
}

function missingAsUndefined(error: NodeJS.ErrnoException): undefined {
  if (MISSING.has(error.code ?? '')) return undefined
  throw error
}

async function* listFiles(root: string, prefix: string): AsyncIterable<ListedObject> {
  let keys: string[]
  try {
    const dirKey = prefix.slice(0, prefix.lastIndexOf('/') + 1)
    keys = (await filesUnder(prefixDirectory(root, prefix), dirKey, prefix)).sort(compareKeys)
  } catch (error) {
    throw new StorageError('list', prefix, error)
  }
  for (const key of keys) {
    // A key deleted since the walk is simply not listed.
    const info = await stat(join(root, key)).catch(missingAsUndefined)
    if (info?.isFile()) yield { key, size: info.size, lastModified: info.mtime }
  }
}

/** Keys of the files below `dir` (whose key prefix is `dirKey`) that start with `prefix`. */
async function filesUnder(dir: string, dirKey: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(missingAsUndefined)
  const keys: string[] = []
  for (const entry of entries ?? []) {
    if (isReservedName(entry.name)) continue
    const key = dirKey + entry.name
    if (entry.isDirectory() && (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)))
      keys.push(...(await filesUnder(join(dir, entry.name), `${key}/`, prefix)))
    else if (entry.isFile() && key.startsWith(prefix)) keys.push(key)
  }
  return keys
}
