import { describe, expect, it } from 'vitest'
import { objectList } from '../../../core/ingest/request-bodies.ts'
import { issuesFromZod } from '../../../core/issues.ts'
import { app } from '../../support/contracts/cluster-apps.ts'

describe('the body of PUT …/objects and of a resync page', () => {
  it('passes each listed object on as parsed, not copied, and refuses an item that is no object with its place', () => {
    const items = app(1)
    const parsed = objectList(10).parse({ apiVersion: 'v1', kind: 'List', items })
    expect(parsed.items).toHaveLength(items.length)
    // The same objects: a resync's list is not copied item by item (and what the engine read of an object stays attached to it).
    parsed.items.forEach((item, i) => expect(item).toBe(items[i]))

    for (const notAnObject of [3, 'Ingress', null, [items[0]]]) {
      const refused = objectList(10).safeParse({ apiVersion: 'v1', kind: 'List', items: [items[0], notAnObject] })
      expect(refused.success).toBe(false)
      expect(issuesFromZod(refused.error!)).toMatchObject([{ path: 'items[1]', message: 'must be a Kubernetes object (a JSON object)' }])
    }
  })
})
