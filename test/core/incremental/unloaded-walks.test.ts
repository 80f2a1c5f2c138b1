import { describe, expect, it, vi } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'

/** Each walk of unloadedOnPaths, as `space:root:keys` (two empty files' trees share a root, not their keys), in order. */
const walked = vi.hoisted(() => [] as string[])

vi.mock('../../../core/tree/unloaded-paths.ts', async (original) => {
  const real = await original<typeof import('../../../core/tree/unloaded-paths.ts')>()
  return {
    ...real,
    unloadedOnPaths: (...[tree, keys, into]: Parameters<typeof real.unloadedOnPaths>) => {
      walked.push(`${tree.shape.space}:${tree.root.sha256}:${keys.join(' ')}`)
      return real.unloadedOnPaths(tree, keys, into)
    },
  }
})

describe('what a commit lacks on its edits’ paths', () => {
  it('is walked once per tree: the edits of the snapshot and of each file are not walked again as they are made', () => {
    const cluster = new LiveCluster()
    cluster.apply([...app(1), ...app(2)].map(added))
    walked.length = 0
    cluster.apply([modified(app(1, ['/', '/more'])[0])])
    // The snapshot's and the changed maps' trees.
    expect(walked.length).toBeGreaterThan(1)
    expect(walked.filter((tree, index) => walked.indexOf(tree) !== index)).toEqual([])
  })
})
