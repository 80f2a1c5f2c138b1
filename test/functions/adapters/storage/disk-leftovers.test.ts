import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDiskStore } from '../../../../functions/adapters/storage/disk-store.ts'
import { removeLeftovers } from '../../../../functions/adapters/storage/disk-leftovers.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

let root: string | undefined
afterEach(async () => root && removeTempDir(root))

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const paths = await readdir(dir, { recursive: true })
  const files = await Promise.all(paths.map(async (path) => ((await stat(join(dir, path))).isFile() ? [path] : [])))
  return files.flat().sort()
}

describe("a disk store's leftovers", () => {
  it('are removed once older than the cutoff: temp files of writes that never got their name, and stale locks moved aside; objects, locks and young temp files stay', async () => {
    root = await makeTempDir('hapedge-leftovers')
    const store = createDiskStore({ root })
    await store.put('clusters/prod/HEAD', 'head')
    await store.put('clusters/prod/blobs/ab', 'blob')
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    const leave = async (path: string, old: boolean) => {
      await mkdir(join(root!, path, '..'), { recursive: true })
      await writeFile(join(root!, path), 'left by a crash')
      if (old) await utimes(join(root!, path), hourAgo, hourAgo)
    }
    await leave('clusters/prod/blobs/.~tmp-0123456789ab-cd', true)
    await leave('clusters/prod/.~tmp-0123456789ab-HEAD', true)
    await leave('.~tmp-0123456789ab-admin-token', true)
    await leave('clusters/prod/.~lock-HEAD.0123456789ab.stale', true)
    await leave('clusters/prod/.~lock-HEAD', true)
    await leave('clusters/prod/blobs/.~tmp-ba9876543210-ef', false)

    const removed = await removeLeftovers(root, new Date(Date.now() - 15 * 60_000))
    expect(removed.map((path) => relative(root!, path)).sort()).toEqual([
      '.~tmp-0123456789ab-admin-token',
      'clusters/prod/.~lock-HEAD.0123456789ab.stale',
      'clusters/prod/.~tmp-0123456789ab-HEAD',
      'clusters/prod/blobs/.~tmp-0123456789ab-cd',
    ])
    expect(await filesUnder(root)).toEqual([
      'clusters/prod/.~lock-HEAD',
      'clusters/prod/HEAD',
      'clusters/prod/blobs/.~tmp-ba9876543210-ef',
      'clusters/prod/blobs/ab',
    ])
    expect(new TextDecoder().decode((await store.get('clusters/prod/blobs/ab'))!.body)).toBe('blob')
  })
})
