import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const list = (items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', metadata: {}, items })

/** A memory store that tells each read of the cluster's HEAD. */
function headWatchingStore(onHead: () => void): ObjectStore {
  const store = createMemoryStore()
  const head = clusterKeys('prod').head
  return Object.assign(Object.create(store) as ObjectStore, {
    get: (key: string) => {
      if (key === head) onHead()
      return store.get(key)
    },
  })
}

describe('PUT …/objects over a snapshot', () => {
  it('reads HEAD once before its commit, whose compare-and-swap reads it again, and once for its answer', async () => {
    let reads = 0
    const { register, events, call } = harness({ store: headWatchingStore(() => reads++) })
    const token = await register('prod')
    await events('prod', token, [...app(1), ...app(2)].map(put))
    reads = 0
    const resync = await call('PUT', '/v1/clusters/prod/objects', token, list([...app(1), ...app(3)]))
    expect(((await resync.json()) as { committed: boolean }).committed).toBe(true)
    // Before the body; the commit's own; the answer's rejections and warnings, of what was committed.
    expect(reads).toBe(3)
  })

  it('commits over a HEAD a write moved while the list was sent, keeping that write', async () => {
    let headRead: () => void = () => {}
    const routeRead = new Promise<void>((resolve) => (headRead = resolve))
    const { register, events, app: hono, store } = harness({ store: headWatchingStore(() => headRead()) })
    const token = await register('prod')
    await events('prod', token, app(1).map(put))
    const listed = [...app(1), ...app(2)]
    const text = JSON.stringify(list(listed))
    const encoder = new TextEncoder()
    let send: ReadableStreamDefaultController<Uint8Array> | undefined
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (send = controller) })
    const answer = hono.request(
      new Request('http://hapedge/v1/clusters/prod/objects', {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    )
    send!.enqueue(encoder.encode(text.slice(0, 20)))
    await routeRead
    // Committed after the resync read HEAD, before its list ends: an object the list does not name.
    const [moved] = app(3)
    expect(((await (await events('prod', token, [put(moved)])).json()) as { committed: boolean }).committed).toBe(true)
    send!.enqueue(encoder.encode(text.slice(20)))
    send!.close()
    const resync = await answer
    const { committed, manifest } = (await resync.json()) as { committed: boolean; manifest: string }
    expect(committed).toBe(true)
    // The list is compared with the snapshot read before it: what came after it is not the list's to delete.
    expect(await readGeneration(store, 'prod', manifest, coldContext())).toEqual(fullRebuild([...listed, moved]).files)
  })
})
