import { describe, expect, it } from 'vitest'
import type { IngestResult } from '../../../../core/ingest/ingest.ts'
import type { WatchEvent } from '../../../../core/incremental/watch-event.ts'
import { WriteQueue } from '../../../../functions/app/services/write-queue.ts'
import { ANSWER_WARNINGS } from '../../../../core/ingest/write-warnings.ts'
import { ingress } from '../../../support/objects.ts'

const unchanged: IngestResult = {
  generation: 1,
  manifest: null,
  committed: false,
  changed: { files: 0, bytes: 0 },
  reload: false,
  reasons: [],
  rejected: [],
  warnings: [],
  warningCount: 0,
  ignored: null,
  stale: 0,
}
const added = (name: string): WatchEvent[] => [
  { type: 'ADDED', object: ingress({ name, rules: [{ host: `${name}.example.com`, paths: [{ service: 'web' }] }] }) },
]

describe('WriteQueue', () => {
  it('lets the event loop run between two groups, so a backlog on one cluster does not hold the thread from the others', async () => {
    const order: string[] = []
    // Commits that finish in microtasks, as a commit whose reads are cached does: without a yield, the next group would start before any timer or I/O callback.
    const queue = new WriteQueue(
      async (events: readonly WatchEvent[]) => {
        order.push(`commit ${events.length}`)
        if (order.length === 1) setTimeout(() => order.push('another request'), 0)
        return unchanged
      },
      1,
      () => {},
    )
    await Promise.all([queue.submit(added('a'), undefined), queue.submit(added('b'), undefined)])
    expect(order).toEqual(['commit 1', 'another request', 'commit 1'])
  })

  it('still commits requests that fit together as one group', async () => {
    const groups: number[] = []
    const queue = new WriteQueue(
      async (events: readonly WatchEvent[]) => {
        groups.push(events.length)
        return unchanged
      },
      10,
      () => {},
    )
    await Promise.all(['a', 'b', 'c'].map((name) => queue.submit(added(name), undefined)))
    expect(groups).toEqual([1, 2])
  })

  it("answers each request of a group its own objects' warnings, the first ANSWER_WARNINGS of them with their count", async () => {
    const warning = (object: string, n: number) => ({ object: `Ingress default/${object}`, annotation: `x.io/k${String(n).padStart(3, '0')}`, reason: 'r' })
    const many = Array.from({ length: ANSWER_WARNINGS + 5 }, (_, n) => warning('b', n))
    const all = [warning('a', 0), ...many, warning('c', 0)]
    const groups: number[] = []
    // As ingest answers: the warnings of the Ingresses the committed events put (a group's, or a request's alone).
    const queue = new WriteQueue(
      async (events: readonly WatchEvent[]) => {
        groups.push(events.length)
        const names = new Set(events.map((event) => `Ingress default/${(event.object.metadata as { name: string }).name}`))
        const warnings = all.filter((each) => names.has(each.object))
        return { ...unchanged, warnings, warningCount: warnings.length }
      },
      10,
      () => {},
    )
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => queue.submit(added(name), undefined)))
    expect(groups).toEqual([1, 2])
    expect(a).toMatchObject({ warnings: [warning('a', 0)], warningCount: 1 })
    expect(b).toMatchObject({ warnings: many.slice(0, ANSWER_WARNINGS), warningCount: many.length })
    expect(c).toMatchObject({ warnings: [warning('c', 0)], warningCount: 1 })
  })
})
