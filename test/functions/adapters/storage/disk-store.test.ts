import { execFile } from 'node:child_process'
import { pbkdf2, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../../core/ports/object-store.ts'
import { createDiskStore } from '../../../../functions/adapters/storage/disk-store.ts'
import { thisHolder } from '../../../../functions/adapters/storage/lock-holder.ts'
import { readOnEveryRequest } from '../../../../functions/adapters/storage/read-on-every-request.ts'
import { readCounter } from '../../../support/contracts/cas-counter.ts'
import { objectStoreContract } from '../../../support/contracts/object-store-contract.ts'
import { storageError } from '../../../support/contracts/storage-error.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

objectStoreContract('disk', async () => {
  const root = await makeTempDir('hapedge-disk-store')
  return { store: createDiskStore({ root }), honoursConditions: true, cleanup: () => removeTempDir(root) }
})

// Every key read at once: the same answers, conditions and errors as through the thread pool.
objectStoreContract('disk, every key read at once', async () => {
  const root = await makeTempDir('hapedge-disk-store')
  return { store: createDiskStore({ root, readAtOnce: () => true }), honoursConditions: true, cleanup: () => removeTempDir(root) }
})

describe('a disk store reading some keys at once', () => {
  it("reads them while libuv's thread pool is busy, where a read through the pool waits for it", async () => {
    const root = await makeTempDir('hapedge-disk-store')
    try {
      const store = createDiskStore({ root, readAtOnce: readOnEveryRequest })
      await store.put('registry/clusters/prod', '{"id":"prod"}')
      await store.put('clusters/prod/HEAD', '{"generation":1}')
      await store.put('clusters/prod/blobs/0a', 'a node')
      const order: string[] = []
      // Four key derivations hold the pool's four threads for a while, as a commit's fsyncs do.
      const busy = Array.from({ length: 4 }, () => promisify(pbkdf2)('secret', 'salt', 400_000, 32, 'sha256').then(() => order.push('pool free')))
      await Promise.all([
        store.get('clusters/prod/blobs/0a').then(() => order.push('node')),
        store.get('clusters/prod/HEAD').then(() => order.push('HEAD')),
        store.head('registry/clusters/prod').then(() => order.push('record')),
        ...busy,
      ])
      expect(order.slice(0, 2).sort()).toEqual(['HEAD', 'record'])
      expect(order.indexOf('node')).toBeGreaterThan(order.indexOf('pool free'))
      expect(['clusters/prod/HEAD', 'registry/clusters/prod', 'registry/clusters/prod/x'].map(readOnEveryRequest)).toEqual([true, true, true])
      expect(['clusters/prod/blobs/HEAD', 'clusters/prod/nodes/0a', 'clusters/prod/HEAD.tmp', 'registry/admin'].map(readOnEveryRequest)).toEqual([
        false,
        false,
        false,
        false,
      ])
    } finally {
      await removeTempDir(root)
    }
  })
})

describe('disk store', () => {
  let parent: string
  let root: string
  let store: ObjectStore

  beforeAll(async () => {
    parent = await makeTempDir('hapedge-disk-store')
    root = join(parent, 'root')
    await mkdir(root)
    store = createDiskStore({ root, lock: { timeoutMs: 300 } })
  })
  afterAll(() => removeTempDir(parent))

  it.each([
    ['', 'is empty'],
    ['/etc/passwd', 'is absolute'],
    ['../outside', 'has a ".." segment'],
    ['a/../../outside', 'has a ".." segment'],
    ['a/./b', 'has a "." segment'],
    ['a\\..\\outside', 'contains a backslash'],
    ['a\0b', 'contains NUL'],
    ['a//b', 'has an empty segment'],
    ['a/', 'has an empty segment'],
    ['a/.~lock-b', 'reserved for temp and lock files'],
  ])('refuses the key %j, saying it %s, for every operation', async (key, why) => {
    for (const call of [store.put(key, 'x'), store.get(key), store.head(key), store.delete([key])]) {
      const error = await storageError(call)
      expect(error.message).toContain(why)
      expect(error.message).toContain(JSON.stringify(key))
    }
    expect(await readdir(parent)).toEqual(['root'])
  })

  it('lists no temp or lock files a crashed writer left, and serves the object beside them', async () => {
    await store.put('left/HEAD', 'committed')
    await writeFile(join(root, 'left', '.~tmp-0123456789ab-HEAD'), 'half writ')
    const listed = []
    for await (const object of store.list('left/')) listed.push(object.key)
    expect(listed).toEqual(['left/HEAD'])
    expect(new TextDecoder().decode((await store.get('left/HEAD'))!.body)).toBe('committed')
  })

  it('never shows a reader a partly written object: each read is the old or the new one whole', async () => {
    const size = 4 * 1024 * 1024
    await store.put('atomic/big', new Uint8Array(size).fill(0x61))
    let writing = true
    const writer = (async () => {
      for (let round = 0; round < 6; round++) await store.put('atomic/big', new Uint8Array(size).fill(round % 2 ? 0x61 : 0x62))
      writing = false
    })()
    const seen = new Set<string>()
    while (writing) {
      const { body } = (await store.get('atomic/big'))!
      expect(body.length).toBe(size)
      expect(body.every((byte) => byte === body[0])).toBe(true)
      seen.add(String.fromCharCode(body[0]!))
    }
    await writer
    expect(seen.size).toBeGreaterThan(0)
  }, 30_000)

  describe('a lock file left behind', () => {
    const minuteAgo = new Date(Date.now() - 60_000)
    /** Leaves a lock on `key` as if written a minute ago by `holder`. */
    const leaveLock = async (key: string, holder: string) => {
      await mkdir(join(root, 'locks'), { recursive: true })
      const lock = join(root, 'locks', `.~lock-${key}`)
      await writeFile(lock, holder)
      await utimes(lock, minuteAgo, minuteAgo)
    }
    const swapSucceeds = async (key: string) => expect(await store.put(`locks/${key}`, 'after a crash', { ifNoneMatch: '*' })).toEqual(expect.any(String))

    it('is broken when its holder is gone', async () => {
      await leaveLock('gone', `999999999 ${hostname()}`)
      await swapSucceeds('gone')
    })

    it("is broken when it names this process's PID under another process id: an earlier server's, as a restarted container's PID 1 is", async () => {
      await leaveLock('earlier', `${process.pid} ${hostname()} ${randomBytes(9).toString('base64url')} 1`)
      await swapSucceeds('earlier')
    })

    it.skipIf(!existsSync('/proc/self/stat'))('is broken when its PID now runs a process that started at another time (a reused PID)', async () => {
      await leaveLock('reused', `${process.ppid} ${hostname()} ${randomBytes(9).toString('base64url')} 1`)
      await swapSucceeds('reused')
    })

    it('is waited out while its holder runs: another operation of this process, or another process', async () => {
      await store.put('locks/live', 'committed')
      const etag = (await store.head('locks/live'))!.etag
      for (const holder of [await thisHolder(), `${process.ppid} ${hostname()}`]) {
        await leaveLock('live', holder)
        await expect(store.put('locks/live', 'blocked', { ifMatch: etag })).rejects.toThrow(/storage put locks\/live failed: lock .* still held/)
      }
      // Only a compare-and-swap takes the lock: a plain put replaces the name atomically by rename alone.
      expect(await store.put('locks/live', 'plain')).toEqual(expect.any(String))
      expect(new TextDecoder().decode((await store.get('locks/live'))!.body)).toBe('plain')
    })
  })

  it('keeps compare-and-swap across processes: two processes, 15 increments each, no update lost', async () => {
    const child = fileURLToPath(new URL('./disk-cas-child.ts', import.meta.url))
    const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', child, root, 'processes/counter', '15'])
    const outputs = await Promise.all([run(), run()])
    expect(await readCounter(store, 'processes/counter')).toBe(30)
    expect(outputs.map(({ stdout }) => Number(stdout)).every((attempts) => attempts >= 15)).toBe(true)
  }, 60_000)
})
