import { afterEach, describe, expect, it, vi } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { Table } from '../../../core/snapshot/table.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'

afterEach(() => vi.restoreAllMocks())

/** A main Ingress and its canary on host `n`, the canary read from a header. */
const canaryPair = (n: number) => [
  ingress({ name: `main-${n}`, createdAt: '2024-01-01T00:00:00Z', rules: [{ host: `shop-${n}.example.com`, paths: [{ service: 'app-1' }] }] }),
  ingress({
    name: `canary-${n}`,
    createdAt: '2024-02-01T00:00:00Z',
    annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': 'X-Canary' },
    rules: [{ host: `shop-${n}.example.com`, paths: [{ service: 'app-2' }] }],
  }),
]

/** The table entries one path added to an Ingress reads, beside `pairs` canary Ingresses. */
function entriesReadByOneChange(pairs: number): number {
  const cluster = new LiveCluster()
  cluster.apply([...app(1), ...app(2), ...Array.from({ length: pairs }, (_, n) => canaryPair(n)).flat()].map(added))
  const entries = Table.prototype.entries
  let read = 0
  vi.spyOn(Table.prototype, 'entries').mockImplementation(function* (this: Table<unknown>, within?: string) {
    for (const entry of entries.call(this, within)) {
      read++
      yield entry
    }
  })
  cluster.apply([added(ingress({ name: 'app-1', rules: [{ host: 'app-1.example.com', paths: [{ service: 'app-1' }, { path: '/new', service: 'app-1' }] }] }))])
  vi.restoreAllMocks()
  return read
}

describe("a change beside many canaries' frontend rules", () => {
  it('reads the rules once each, not every canary Ingress', () => {
    const few = entriesReadByOneChange(5)
    const many = entriesReadByOneChange(100)
    expect(few).toBeGreaterThan(0)
    expect(many).toBe(few)
  })
})
