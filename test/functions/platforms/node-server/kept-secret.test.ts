import { existsSync } from 'node:fs'
import { open, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keptSecret } from '../../../../functions/platforms/node-server/kept-secret.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

let dir: string | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  if (dir) await removeTempDir(dir)
})

/** Node's FileHandle class is not exported: its prototype, from a handle. */
async function fileHandlePrototype(): Promise<{ sync(): Promise<void> }> {
  const handle = await open(dir!, 'r')
  await handle.close()
  return Object.getPrototypeOf(handle)
}

describe('a secret kept in the data directory', () => {
  it('is one secret for starts at once, never read before it is written whole', async () => {
    dir = await makeTempDir('hapedge-kept-secret')
    // Many files, four starts at once on each: a start that read the file between another's create and write took an empty secret.
    for (let file = 0; file < 300; file++) {
      const path = join(dir, `secret-${file}`)
      const starts = await Promise.all([0, 1, 2, 3].map((start) => keptSecret(path, () => `secret-${file}-made-by-${start}`)))
      expect(new Set(starts.map((kept) => kept!.value)), path).toEqual(new Set([expect.stringMatching(new RegExp(`^secret-${file}-made-by-\\d$`))]))
      expect(starts.filter((kept) => kept!.created)).toHaveLength(1)
    }
    expect((await readdir(dir)).filter((name) => !name.startsWith('secret-'))).toEqual([])
  })

  it('refuses an empty file with its path instead of taking it as the secret', async () => {
    dir = await makeTempDir('hapedge-kept-secret')
    const path = join(dir, 'admin-token')
    await writeFile(path, '\n')
    await expect(keptSecret(path, () => 'a-new-secret')).rejects.toThrow(`${path} is empty`)
  })

  it('is flushed to disk before it takes its name, and its directory after', async () => {
    dir = await makeTempDir('hapedge-kept-secret')
    const path = join(dir, 'admin-token')
    const prototype = await fileHandlePrototype()
    const sync = prototype.sync
    const namedWhenFlushed: boolean[] = []
    vi.spyOn(prototype, 'sync').mockImplementation(function (this: unknown) {
      namedWhenFlushed.push(existsSync(path))
      return sync.call(this)
    })
    expect(await keptSecret(path, () => 'a-new-secret')).toEqual({ value: 'a-new-secret', created: true })
    expect(namedWhenFlushed).toEqual([false, true])
    expect(await readFile(path, 'utf8')).toBe('a-new-secret\n')
    expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  it('leaves no file when it cannot be flushed, so the next start makes one instead of finding an empty one', async () => {
    dir = await makeTempDir('hapedge-kept-secret')
    const path = join(dir, 'admin-token')
    vi.spyOn(await fileHandlePrototype(), 'sync').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }))
    await expect(keptSecret(path, () => 'a-new-secret')).rejects.toThrow('EIO')
    expect(await readdir(dir)).toEqual([])
    expect(await keptSecret(path, () => 'the-next-secret')).toEqual({ value: 'the-next-secret', created: true })
  })
})
