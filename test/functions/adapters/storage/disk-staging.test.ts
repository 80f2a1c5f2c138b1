import { pbkdf2 } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { clusterNodeStaging } from '../../../../functions/adapters/storage/disk-staging.ts'
import { createDiskStore } from '../../../../functions/adapters/storage/disk-store.ts'
import { objectStoreContract } from '../../../support/contracts/object-store-contract.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

objectStoreContract('disk with staged nodes', async () => {
  const root = await makeTempDir('hapedge-disk-staging')
  return { store: createDiskStore({ root, staging: clusterNodeStaging }), honoursConditions: true, cleanup: () => removeTempDir(root) }
})

const text = async (body: Promise<{ body: Uint8Array } | undefined>) => new TextDecoder().decode((await body)!.body)

describe('a disk store that stages a cluster’s nodes', () => {
  it("writes a commit's first nodes at once, while libuv's thread pool is busy, and a resync's many more through it", async () => {
    const root = await makeTempDir('hapedge-disk-staging')
    try {
      const store = createDiskStore({ root, staging: clusterNodeStaging })
      const keys = (cluster: string, n: number) => Array.from({ length: n }, (_, i) => `clusters/${cluster}/nodes/${String(i).padStart(4, '0')}`)
      const order: string[] = []
      // Four key derivations hold the pool's four threads, as the fsyncs of other commits do.
      const busy = Array.from({ length: 4 }, () => promisify(pbkdf2)('secret', 'salt', 400_000, 32, 'sha256').then(() => order.push('pool free')))
      const commit = Promise.all(keys('small', 19).map((key) => store.put(key, `node ${key}`))).then(() => order.push('19 nodes staged'))
      const resync = Promise.all(keys('large', 200).map((key) => store.put(key, `node ${key}`))).then(() => order.push('200 nodes staged'))
      await Promise.all([commit, resync, ...busy])
      expect(order[0]).toBe('19 nodes staged')
      expect(order.indexOf('200 nodes staged')).toBeGreaterThan(order.indexOf('pool free'))
      expect(await text(store.get('clusters/small/nodes/0018'))).toBe('node clusters/small/nodes/0018')
    } finally {
      await removeTempDir(root)
    }
  })

  it('serves a staged node at once, and flushes a cluster’s nodes only when that cluster’s next conditional put runs', async () => {
    const root = await makeTempDir('hapedge-disk-staging')
    try {
      const store = createDiskStore({ root, staging: clusterNodeStaging })
      const nodes = Array.from({ length: 100 }, (_, i) => `clusters/a/nodes/${String(i).padStart(4, '0')}`)
      await Promise.all(nodes.map((key) => store.put(key, `node ${key}`)))
      await store.put('clusters/b/nodes/x', 'b’s node')
      expect(await text(store.get(nodes[7]!))).toBe(`node ${nodes[7]}`)
      expect((await store.head(nodes[7]!))?.size).toBe(`node ${nodes[7]}`.length)
      // Another cluster's HEAD, or an unconditional put, flushes nothing of cluster a.
      await store.put('clusters/b/HEAD', 'b', { ifNoneMatch: '*' })
      await store.put('clusters/a/last-event', 'now')

      expect(await store.put('clusters/a/HEAD', 'a', { ifNoneMatch: '*' })).toBeDefined()
      for (const key of nodes) expect(await readFile(join(root, key), 'utf8')).toBe(`node ${key}`)
      const listed = []
      for await (const object of store.list('clusters/a/nodes/')) listed.push(object.key)
      expect(listed).toEqual(nodes)
      expect((await readdir(join(root, 'clusters/a/nodes'))).sort()).toEqual(nodes.map((key) => key.split('/').pop()))
    } finally {
      await removeTempDir(root)
    }
  })

  it('writes a node whose name is free in place at once, with no temp file, and one whose name is taken beside it until the flush', async () => {
    const root = await makeTempDir('hapedge-disk-staging')
    try {
      const store = createDiskStore({ root, staging: clusterNodeStaging })
      // What holds the name: a committed object, or what a crash left of a write cut short.
      await mkdir(join(root, 'clusters/a/nodes'), { recursive: true })
      await writeFile(join(root, 'clusters/a/nodes/taken'), 'cut sh')
      await store.put('clusters/a/nodes/free', 'free node')
      await store.put('clusters/a/nodes/taken', 'taken node')
      expect(await readdir(join(root, 'clusters/a/nodes'))).toHaveLength(3)
      expect(await readFile(join(root, 'clusters/a/nodes/free'), 'utf8')).toBe('free node')
      // The name keeps what it held, whole, until the flush; this process reads the staged object.
      expect(await readFile(join(root, 'clusters/a/nodes/taken'), 'utf8')).toBe('cut sh')
      expect(await text(store.get('clusters/a/nodes/taken'))).toBe('taken node')

      await store.put('clusters/a/HEAD', 'a', { ifNoneMatch: '*' })
      expect((await readdir(join(root, 'clusters/a/nodes'))).sort()).toEqual(['free', 'taken'])
      expect(await readFile(join(root, 'clusters/a/nodes/taken'), 'utf8')).toBe('taken node')
    } finally {
      await removeTempDir(root)
    }
  })

  it('forgets a staged node deleted before its flush, and keeps the last of two puts of one key', async () => {
    const root = await makeTempDir('hapedge-disk-staging')
    try {
      const store = createDiskStore({ root, staging: clusterNodeStaging })
      await store.put('clusters/a/blobs/gone', 'x')
      await store.delete(['clusters/a/blobs/gone'])
      expect(await store.get('clusters/a/blobs/gone')).toBeUndefined()
      await store.put('clusters/a/blobs/twice', 'first')
      await store.put('clusters/a/blobs/twice', 'second')
      await store.put('clusters/a/HEAD', 'a', { ifNoneMatch: '*' })
      expect(existsSync(join(root, 'clusters/a/blobs/gone'))).toBe(false)
      expect(await readFile(join(root, 'clusters/a/blobs/twice'), 'utf8')).toBe('second')
      // No temp file is left behind.
      expect(await readdir(join(root, 'clusters/a/blobs'))).toEqual(['twice'])
    } finally {
      await removeTempDir(root)
    }
  })
})
