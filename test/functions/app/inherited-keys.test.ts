import { describe, expect, it } from 'vitest'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { configMap } from '../../support/objects.ts'
import { harness } from './app-harness.ts'

/** Names a plain object answers for without holding them. */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']

/** The settings ConfigMap with each of them as a data key (own keys, so `__proto__` goes on the wire as a key). */
const settings = configMap({ ...Object.fromEntries(INHERITED.map((key) => [key, 'x'])), balance: 'leastconn' })

const put = (object: unknown) => ({ type: 'MODIFIED', object })

describe('keys that name what Object.prototype holds, over HTTP', () => {
  it('a write with kind "constructor" or a ConfigMap keyed "__proto__" answers 200 (the setting rejected with its path), as does a resync; a later write still commits', async () => {
    const { register, events, call, store } = harness()
    const token = await register('prod')
    const kinds = INHERITED.map((kind) => put({ kind, metadata: { name: 'x', namespace: 'default' } }))

    const unread = await events('prod', token, kinds)
    expect(unread.status).toBe(200)
    expect(await unread.json()).toMatchObject({ rejected: [] })

    const keyed = await events('prod', token, [put(settings)])
    expect(keyed.status).toBe(200)
    const { rejected } = (await keyed.json()) as { rejected: { object: string; reason: string }[] }
    expect(rejected.map((rejection) => rejection.object)).toEqual(rejected.map(() => 'ConfigMap hapedge/hapedge'))
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      expect(
        rejected.some((rejection) => rejection.reason.startsWith(`data.${key}: unknown setting`)),
        key,
      ).toBe(true)
    }

    const resync = await call('PUT', '/v1/clusters/prod/objects', token, {
      apiVersion: 'v1',
      kind: 'List',
      items: [...kinds.map((event) => event.object), settings],
    })
    expect(resync.status).toBe(200)

    const later = await events('prod', token, app(1).map(put))
    expect(later.status).toBe(200)
    const { committed, manifest } = (await later.json()) as { committed: boolean; manifest: string }
    expect(committed).toBe(true)
    expect(await readGeneration(store, 'prod', manifest, coldContext())).toEqual(fullRebuild([settings, ...app(1)]).files)
  })
})
