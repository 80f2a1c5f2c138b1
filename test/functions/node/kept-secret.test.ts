import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { keptSecret } from '../../../functions/node/kept-secret.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

let dir: string | undefined
afterEach(async () => dir && removeTempDir(dir))

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
})
