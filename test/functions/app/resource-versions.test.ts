import { describe, expect, it } from 'vitest'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { harness } from './app-harness.ts'

const at = <T extends { metadata: object }>(object: T, resourceVersion: string): T => ({ ...object, metadata: { ...object.metadata, resourceVersion } })
const put = (object: unknown) => ({ type: 'MODIFIED', object })

const FAR_FUTURE = '99999999999999999999'

describe('resourceVersions over HTTP', () => {
  it('a write after one at a far-future version commits', async () => {
    const { register, events, store } = harness()
    const token = await register('prod')
    const [twoRoutes, ...rest] = app(1, ['/', '/v2'])
    const [oneRoute] = app(1, ['/'])
    await events('prod', token, [...rest, at(twoRoutes!, FAR_FUTURE)].map(put))
    const later = await events('prod', token, [put(at(oneRoute!, '5'))])
    const { manifest, ...answer } = (await later.json()) as { manifest: string; committed: boolean; stale: number }
    expect(answer).toMatchObject({ committed: true, stale: 0 })
    expect(await readGeneration(store, 'prod', manifest, coldContext())).toEqual(fullRebuild([oneRoute, ...rest]).files)
  })

  it('a resync deletes what its list lacks, whatever version the list and the object carry', async () => {
    const { register, events, call, store } = harness()
    const token = await register('prod')
    const [kept, ...keptRest] = app(1)
    const [future, ...futureRest] = app(2)
    await events('prod', token, [...keptRest, ...futureRest, kept, at(future!, FAR_FUTURE)].map(put))
    const resync = await call('PUT', '/v1/clusters/prod/objects', token, {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '500' },
      items: [kept, ...keptRest, ...futureRest],
    })
    expect(resync.status).toBe(200)
    const { manifest } = (await resync.json()) as { manifest: string }
    expect(await readGeneration(store, 'prod', manifest, coldContext())).toEqual(fullRebuild([kept, ...keptRest, ...futureRest]).files)
  })
})
