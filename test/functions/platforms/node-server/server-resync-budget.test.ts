import { describe, expect, it } from 'vitest'
import { DEFAULT_RESYNC_BUDGET } from '../../../../core/resync/budget.ts'
import { serverResyncBudget } from '../../../../functions/platforms/node-server/server-resync-budget.ts'

const MiB = 1024 * 1024

describe('serverResyncBudget', () => {
  it('commits a paged resync a page at a time where the heap is roomy, two where it is large, rather than a quarter of a page', () => {
    expect(serverResyncBudget(512 * MiB).commitItems).toBe(DEFAULT_RESYNC_BUDGET.pageItems)
    const budget = serverResyncBudget(4096 * MiB)
    expect(budget.commitItems).toBe(2 * budget.pageItems)
    // A finish request applies at least one commit's items: no more than that at a time.
    expect(budget.commitItems).toBeLessThanOrEqual(budget.finishItems)
    // Only the commits and the lists taken whole grow: what one request reads, scans and deletes stays the functions' budget.
    expect({ ...budget, commitItems: DEFAULT_RESYNC_BUDGET.commitItems, wholeListItems: DEFAULT_RESYNC_BUDGET.wholeListItems }).toEqual(DEFAULT_RESYNC_BUDGET)
  })

  it('takes whole a list its heap holds at twice the peak measured per item: 20,000 Ingresses (31,967 objects) in a 2 GiB heap, not in 512 MiB', () => {
    expect(serverResyncBudget(2048 * MiB).wholeListItems).toBeGreaterThan(31_967)
    expect(serverResyncBudget(512 * MiB).wholeListItems).toBeLessThan(31_967)
  })

  it("keeps the functions' budget under a small heap (--max-old-space-size=64, whose limit V8 reports as 112 MiB)", () => {
    expect(serverResyncBudget(112 * MiB)).toEqual(DEFAULT_RESYNC_BUDGET)
  })
})
