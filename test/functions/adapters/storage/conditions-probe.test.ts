import { afterAll, describe, expect, it } from 'vitest'
import { ignoredConditions } from '../../../../functions/adapters/storage/conditions-probe.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { createS3Store } from '../../../../functions/adapters/storage/s3-store.ts'
import { startConditionalS3Double } from '../../../support/conditional-s3-double.ts'
import { loopbackClient, startS3rver } from './s3-servers.ts'

/** What `hapedge serve --store` checks before it serves: a server that ignores conditions would let replicas overwrite each other's HEAD. */
describe('whether a store refuses a write whose condition fails', () => {
  const stops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const stop of stops) await stop()
  })
  const s3On = (endpoint: string) => createS3Store({ client: loopbackClient(endpoint), bucket: 'hapedge', prefix: 'p/' })

  it('says no for s3rver, which ignores If-None-Match and If-Match, at the first probe and at every later one', async () => {
    const server = await startS3rver('hapedge')
    stops.push(server.stop)
    const all = ['If-None-Match: * on a key that exists', 'If-Match with another etag', 'If-Match on a key that does not exist']
    expect(await ignoredConditions(s3On(server.endpoint), 'probe')).toEqual(all)
    expect(await ignoredConditions(s3On(server.endpoint), 'probe')).toEqual(all)
    expect(await s3On(server.endpoint).head('probe-missing')).toBeUndefined()
  })

  it('says yes for the conditional S3 double and the memory store, for several probes at once', async () => {
    const double = await startConditionalS3Double({ buckets: ['hapedge'] })
    stops.push(double.stop)
    expect(await Promise.all([1, 2, 3].map(() => ignoredConditions(s3On(double.endpoint), 'probe')))).toEqual([[], [], []])
    expect(await ignoredConditions(createMemoryStore(), 'probe')).toEqual([])
  })

  it('says no for the double told to ignore conditions', async () => {
    const double = await startConditionalS3Double({ buckets: ['hapedge'], ignoreConditions: true })
    stops.push(double.stop)
    expect(await ignoredConditions(s3On(double.endpoint), 'probe')).toHaveLength(3)
  })
})
