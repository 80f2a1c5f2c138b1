import { describe, expect, it } from 'vitest'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before each header and canary rule's count of objects was kept: the frontend's rules were a scan of every object's. */
const BEFORE_RULE_USES = 31

const main = ingress({ name: 'main', createdAt: '2024-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
const canary = (name: string, header: string) =>
  ingress({
    name,
    createdAt: '2024-02-01T00:00:00Z',
    annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': header },
    rules: [{ host: `${name}.example.com`, paths: [{ service: 'app-2' }] }],
  })
const headed = ingress({
  name: 'headed',
  annotations: { 'haproxy.org/response-set-header': 'X-Served-By hapedge' },
  rules: [{ host: 'headed.example.com', paths: [{ service: 'app-1' }] }],
})
const canaryMain = (name: string) =>
  ingress({ name: `${name}-main`, createdAt: '2024-01-01T00:00:00Z', rules: [{ host: `${name}.example.com`, paths: [{ service: 'app-1' }] }] })

describe('a snapshot written before the frontend rules were counted', () => {
  const objects = [...app(1), ...app(2), main, headed, canaryMain('a'), canaryMain('b'), canary('a', 'X-Canary'), canary('b', 'X-Canary')]

  it('counts them at its next write, byte-equal to a fresh snapshot, and then reloads only when the last user of a rule goes', () => {
    const fresh = new LiveCluster()
    fresh.apply(objects.map(added))
    const counted = [...fresh.current.snapshot.prefix(treeKey(TABLE.canaryRuleUses, ''))]
    expect(counted.length).toBeGreaterThan(0)
    expect(counted.every(({ value }) => value === '2')).toBe(true)
    expect([...fresh.current.snapshot.prefix(treeKey(TABLE.headerRuleUses, ''))].length).toBeGreaterThan(0)

    // What layout 31 left: the same, without the counts.
    const older = new LiveCluster()
    older.apply(objects.map(added))
    const uncounted = new Map<string, undefined>()
    for (const table of [TABLE.headerRuleUses, TABLE.canaryRuleUses])
      for (const { key } of older.current.snapshot.prefix(treeKey(table, ''))) uncounted.set(key, undefined)
    const withoutCounts = { ...older.current, snapshot: older.current.snapshot.edit(uncounted).tree }
    const old = olderSnapshot({ ...older, current: withoutCounts } as LiveCluster, fresh, { layout: BEFORE_RULE_USES, objects: [] })
    const upgraded = writeAfterUpgrade(old, older, fresh)

    // One of two canaries reading X-Canary goes: the other still reads it, no reload; then the last: a reload that says so.
    const first = new IncrementalCluster({ snapshot: upgraded.snapshot, manifest: upgraded.generation.manifest }, {}, older.context)
      .apply([{ type: 'DELETED', object: canary('a', 'X-Canary') }])
      .finish()
    expect(first.plan.reasons.filter((reason) => reason.includes('canary'))).toEqual([])
    const last = new IncrementalCluster({ snapshot: first.snapshot, manifest: first.generation.manifest }, {}, older.context)
      .apply([{ type: 'DELETED', object: canary('b', 'X-Canary') }])
      .finish()
    expect(last.plan.reload).toBe(true)
    expect(last.plan.reasons.some((reason) => reason.includes('default/b no longer reads'))).toBe(true)
    expect([...last.snapshot.prefix(treeKey(TABLE.canaryRuleUses, ''))]).toEqual([])
  })
})
