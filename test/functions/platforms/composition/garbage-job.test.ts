import { afterEach, describe, expect, it, vi } from 'vitest'
import { commitEvents } from '../../../../core/commit/commit-events.ts'
import { sha256Text } from '../../../../core/hash.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { garbageSettings, scheduledGarbageJob } from '../../../../functions/platforms/composition/garbage-job.ts'
import { app, coldContext, modified } from '../../../support/contracts/cluster-apps.ts'

describe('the settings of scheduled garbage collection', () => {
  it('are HAPEDGE_GC_KEEP generations and HAPEDGE_GC_GRACE_SECONDS, the collector’s defaults when unset', () => {
    expect(garbageSettings({ HAPEDGE_GC_KEEP: '20', HAPEDGE_GC_GRACE_SECONDS: '60' })).toEqual({ keep: 20, graceMs: 60_000 })
    expect(garbageSettings({ HAPEDGE_GC_GRACE_SECONDS: '0' })).toEqual({ graceMs: 0 })
    expect(garbageSettings({})).toEqual({})
  })

  it.each([
    ['HAPEDGE_GC_KEEP', '0'],
    ['HAPEDGE_GC_KEEP', 'fifty'],
    ['HAPEDGE_GC_KEEP', '2.5'],
    ['HAPEDGE_GC_GRACE_SECONDS', '-1'],
    ['HAPEDGE_GC_GRACE_SECONDS', '15m'],
  ])('refuse %s=%s, naming the variable and the value', (name, value) => {
    expect(() => garbageSettings({ [name]: value })).toThrow(`${name} "${value}"`)
  })
})

describe('the scheduled garbage job of the Worker and the Lambda', () => {
  afterEach(() => vi.restoreAllMocks())

  async function clusterWithHistory() {
    const store = createMemoryStore()
    for (const paths of [['/'], ['/', '/a'], ['/', '/b']])
      await commitEvents({ store, cluster: 'gc', options: {}, context: coldContext() }, app(1, paths).map(modified))
    const keys = async () => {
      const found: string[] = []
      for await (const object of store.list('clusters/gc/')) found.push(object.key)
      return found.sort()
    }
    return { store, keys }
  }

  it('collects every cluster with the settings of its environment', async () => {
    const { store, keys } = await clusterWithHistory()
    const before = await keys()
    const outcomes = await scheduledGarbageJob(store, { HAPEDGE_GC_KEEP: '1', HAPEDGE_GC_GRACE_SECONDS: '0' }, sha256Text, 1024 * 1024)
    expect(outcomes).toMatchObject([{ cluster: 'gc', report: { generation: 3, retained: [3], complete: true } }])
    expect((await keys()).length).toBeLessThan(before.length)
  })

  it('with a setting that is not one, fails naming it and deletes nothing', async () => {
    const { store, keys } = await clusterWithHistory()
    const before = await keys()
    await expect(scheduledGarbageJob(store, { HAPEDGE_GC_KEEP: 'all', HAPEDGE_GC_GRACE_SECONDS: '0' }, sha256Text, 1024 * 1024)).rejects.toThrow(
      'HAPEDGE_GC_KEEP "all": a whole number of generations, at least 1',
    )
    expect(await keys()).toEqual(before)
  })
})
