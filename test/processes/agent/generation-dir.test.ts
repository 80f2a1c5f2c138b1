import { mkdir, readdir, readFile, readlink, realpath, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  installedGeneration,
  installGeneration,
  pruneGenerations,
  stageGeneration,
  switchCurrent,
  type Installed,
} from '../../../processes/agent/generation-dir.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

const first = new Map([
  ['00-global.cfg', 'global\n'],
  ['maps/hosts.map', 'a.test 1\n'],
  ['tls/crt-list.txt', 'tls/a.pem\ntls/b.pem\n'],
  ['tls/a.pem', 'A\n'],
  ['tls/b.pem', 'B\n'],
])

describe('generation directories', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-generations')))
  afterEach(() => removeTempDir(dir))

  /** Installs `files` after `previous`, as the agent does, and answers what the next install compares with. */
  const install = async (manifest: string, files: Map<string, string>, previous?: Installed): Promise<Installed> => {
    await installGeneration(dir, manifest, files, previous)
    return { manifest, files }
  }
  const generation = (manifest: string) => join(dir, '.generations', manifest)
  const inode = async (path: string) => (await stat(path)).ino

  it('shares a subdirectory whose files a generation left alone, and links the unchanged files of one it changed', async () => {
    const one = await install('one', first)
    expect((await installedGeneration(dir))!.files).toEqual(first)

    // A map changed: tls/ is the same shared directory, maps/ a new one.
    const two = await install('two', new Map([...first, ['maps/hosts.map', 'a.test 2\n']]), one)
    expect(await readlink(join(generation('two'), 'tls'))).toBe(await readlink(join(generation('one'), 'tls')))
    expect(await readlink(join(generation('two'), 'maps'))).not.toBe(await readlink(join(generation('one'), 'maps')))
    expect(await inode(join(generation('two'), '00-global.cfg'))).toBe(await inode(join(generation('one'), '00-global.cfg')))
    expect(await readFile(join(dir, 'current', 'maps', 'hosts.map'), 'utf8')).toBe('a.test 2\n')

    // A certificate changed: a new tls/, whose other files are links to the ones before.
    const three = new Map([...two.files, ['tls/a.pem', 'A2\n']])
    await install('three', three, two)
    expect(await realpath(join(generation('three'), 'tls'))).not.toBe(await realpath(join(generation('two'), 'tls')))
    expect(await inode(join(generation('three'), 'tls', 'b.pem'))).toBe(await inode(join(generation('two'), 'tls', 'b.pem')))
    expect((await installedGeneration(dir))!.files).toEqual(three)
  })

  it('gives a subdirectory that lost or gained a file a directory of its own', async () => {
    const one = await install('one', first)
    const fewer = new Map([...first].filter(([path]) => path !== 'tls/b.pem'))
    await install('two', fewer, one)
    expect(await readlink(join(generation('two'), 'tls'))).not.toBe(await readlink(join(generation('one'), 'tls')))
    expect((await installedGeneration(dir))!.files).toEqual(fewer)
  })

  it('prunes old generations and the shared directories no kept generation names, keeping every kept one whole', async () => {
    let previous = await install('g0', first)
    for (let n = 1; n < 6; n++) {
      // Every other generation changes a certificate, so shared directories are made and left behind.
      const files = new Map([...previous.files, ['maps/hosts.map', `a.test ${n}\n`], ...(n % 2 ? [['tls/a.pem', `A${n}\n`] as const] : [])])
      previous = await install(`g${n}`, files, previous)
      await pruneGenerations(dir, `g${n}`)
    }
    const kept = await readdir(join(dir, '.generations'))
    expect(kept.sort()).toEqual(['g3', 'g4', 'g5'])
    const named = new Set<string>()
    for (const name of kept) for (const sub of ['maps', 'tls']) named.add((await readlink(join(generation(name), sub))).split('/').pop()!)
    expect(new Set(await readdir(join(dir, '.shared')))).toEqual(named)
    for (const name of kept) {
      await switchCurrent(dir, name)
      expect((await installedGeneration(dir))!.files.get('maps/hosts.map')).toBe(`a.test ${name.slice(1)}\n`)
    }
  })

  it('takes a generation staged with plain subdirectories (before shared ones) as the one before', async () => {
    // As an earlier agent left it: every file in the generation's own directory.
    for (const [path, text] of first) {
      await mkdir(join(generation('old'), path, '..'), { recursive: true })
      await writeFile(join(generation('old'), path), text)
    }
    await switchCurrent(dir, 'old')
    const old = (await installedGeneration(dir))!
    expect(old.files).toEqual(first)
    await install('new', new Map(old.files), old)
    expect(await inode(join(generation('new'), 'tls', 'a.pem'))).toBe(await inode(join(generation('old'), 'tls', 'a.pem')))
    expect((await installedGeneration(dir))!.files).toEqual(first)
    await pruneGenerations(dir, 'new')
    expect((await installedGeneration(dir))!.files).toEqual(first)
  })

  it('stages and prunes in turns: a pruning asked for during a staging leaves the staged generation whole', async () => {
    const one = await install('one', first)
    const two = new Map([...first, ['tls/a.pem', 'A2\n']])
    const [staged] = await Promise.all([stageGeneration(dir, 'two', two, one), pruneGenerations(dir, 'one')])
    expect(await readFile(join(staged, 'tls', 'a.pem'), 'utf8')).toBe('A2\n')
    await switchCurrent(dir, 'two')
    expect((await installedGeneration(dir))!.files).toEqual(two)
  })
})
