import { existsSync } from 'node:fs'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { createDiskStore } from '../../../functions/adapters/storage/disk-store.ts'
import { app, coldContext, modified } from '../../support/contracts/cluster-apps.ts'
import { hapedge } from '../../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

describe('hapedge gc (CLI)', () => {
  let data: string
  beforeEach(async () => void (data = await makeTempDir('hapedge-gc')))
  afterEach(() => removeTempDir(data))

  it('collects every cluster: deletes what only dropped generations referenced and keeps the current generation whole', async () => {
    const store = createDiskStore({ root: data })
    const commit = (paths: string[]) => commitEvents({ store, cluster: 'prod-eu', options: {}, context: coldContext() }, app(1, paths).map(modified))
    await commit(['/'])
    await commit(['/', '/a'])
    await commit(['/', '/b'])

    await commitEvents({ store, cluster: 'staging', options: {}, context: coldContext() }, app(2).map(modified))
    const run = await hapedge(['gc', '--data', data, '--keep', '1', '--grace', '0s'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [said, ...reports] = run.stdout.split('\n')
    expect(said).toBe(`no --cluster named: collecting every cluster in ${data}`)
    expect(reports.join('\n')).toMatch(
      /^prod-eu: generation 3, kept 1 generations \(\d+ objects\); deleted [1-9]\d*, 0 unreferenced but younger than 0s\nstaging: generation 1, kept 1 generations \(\d+ objects\); deleted 0, 0 unreferenced but younger than 0s\n$/,
    )

    const head = await readHead(store, clusterKeys('prod-eu'))
    expect(await readGeneration(store, 'prod-eu', head!.head.manifest, coldContext())).toEqual(fullRebuild(app(1, ['/', '/b'])).files)
  })

  it('removes the temp files crashed writes left once older than the grace period, and no younger one', async () => {
    const store = createDiskStore({ root: data })
    await commitEvents({ store, cluster: 'prod-eu', options: {}, context: coldContext() }, app(1).map(modified))
    const hourAgo = new Date(Date.now() - 60 * 60_000)
    const old = join(data, 'clusters', 'prod-eu', 'blobs', '.~tmp-0123456789ab-cd')
    const young = join(data, 'clusters', 'prod-eu', '.~tmp-ba9876543210-HEAD')
    for (const path of [old, young]) await writeFile(path, 'half writ')
    await utimes(old, hourAgo, hourAgo)

    const run = await hapedge(['gc', '--data', data, '--grace', '15m'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toContain('removed 1 temp files that crashed writes left, older than 15m')
    expect(existsSync(old)).toBe(false)
    expect(existsSync(young)).toBe(true)
  })

  it('refuses a cluster id that could name another path, and wrong flags, with exit code 2', async () => {
    expect(await hapedge(['gc', '--data', data, '--cluster', '../etc'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--cluster "\.\.\/etc": a DNS label/),
    })
    expect(await hapedge(['gc', '--data', data, '--cluster', 'a', '--grace', 'soon'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--grace soon: a duration/),
    })
    expect(await hapedge(['gc', '--data', data, '--keep', '0'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--keep 0: a whole number/) })
    // Three process starts, each compiling the command through tsx: seconds on a loaded 2-core machine.
  }, 30_000)
})
