import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Applied } from '../../../core/incremental/incremental-cluster.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { mapUpdate, mapUpdateFromLines } from '../../../core/plan/map-updates.ts'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import { changedFiles, changedMapLines } from '../../../core/reading/changed-files.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { mapSplice, splicedText } from '../../../core/reading/spliced-map.ts'
import { FILES } from '../../../core/render/files.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { arbitraryObject, identityOf } from '../../support/arbitrary-objects.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { runs } from '../../support/property-runs.ts'

/** A cluster kept in memory, and the lines of its maps that each change alters, as an agent finds them from the chunk trees. */
function trackedCluster(objects: readonly unknown[]) {
  const cluster = new LiveCluster()
  // Every node is in the cluster's cache: the loader never reaches its (empty) store.
  const loader = new NodeLoader(createMemoryStore(), clusterKeys('lines'), cluster.context)
  const recorded = (applied: Applied) => {
    cluster.context.nodes.add(applied.generation.record.sha256, applied.generation.record.text)
    return applied.generation.record.sha256
  }
  let manifest = recorded(cluster.apply(objects.map((object) => ({ type: 'ADDED', object: object as Record<string, unknown> }))))
  return {
    cluster,
    loader,
    async apply(events: WatchEvent[]) {
      const before = { manifest, files: cluster.files() }
      manifest = recorded(cluster.apply(events))
      const changes = await changedFiles(before.manifest, manifest, loader, cluster.context)
      const lines = await changedMapLines(changes, loader, cluster.context)
      return { before: before.files, after: cluster.files(), lines, changes }
    },
  }
}

describe('the lines of a map that a change alters, from its chunk trees', () => {
  it('give the update and the plan a comparison of the whole files gives, and the next file spliced into the one before, on every step of any event sequence beside maps of many chunks', async () => {
    // 120 apps: their hosts and paths fill each map with several chunks and a level of chunk lists above them.
    const background = Array.from({ length: 120 }, (_, n) => app(n + 1, ['/', `/p${n}`])).flat()
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryObject, { minLength: 1, maxLength: 15 }), async (objects) => {
        const tracked = trackedCluster(background)
        const seen = new Set<string>()
        for (const object of objects) {
          const type = seen.has(identityOf(object)) ? 'MODIFIED' : 'ADDED'
          seen.add(identityOf(object))
          const { before, after, lines, changes } = await tracked.apply([{ type, object: object as Record<string, unknown> }])
          for (const [map, changed] of lines) expect(mapUpdateFromLines(map, changed)).toEqual(mapUpdate(map, before.get(map)!, after.get(map)!))
          // Each changed map's next text, made from its text before and these lines, is the file.
          for (const { path, before: was, after: is } of changes)
            if (lines.has(path)) {
              const parts = mapSplice(before.get(path)!, lines.get(path)!.changes, was!, is!)
              expect(parts && splicedText(before.get(path)!, parts)).toBe(after.get(path))
            }
          expect(planFromFiles(before, after, lines)).toEqual(planFromFiles(before, after))
          expect(
            planFromFiles(
              before,
              after,
              lines,
              changes.map(({ path }) => path),
            ),
          ).toEqual(planFromFiles(before, after))
        }
      }),
      { numRuns: runs(40) },
    )
  }, 60_000)

  it('are the one line a new path adds, beside the lines the map holds after it', async () => {
    const background = Array.from({ length: 400 }, (_, n) => app(n + 1)).flat()
    const tracked = trackedCluster(background)
    const { lines } = await tracked.apply([
      {
        type: 'MODIFIED',
        object: ingress({
          name: 'app-7',
          rules: [
            {
              host: 'app-7.example.com',
              paths: [
                { path: '/', service: 'app-7' },
                { path: '/new', service: 'app-7' },
              ],
            },
          ],
        }),
      },
    ])
    expect([...lines.keys()]).toContain(FILES.prefixMap)
    const prefix = lines.get(FILES.prefixMap)!
    expect(prefix.changes).toEqual([{ key: 'app-7.example.com/new/', after: expect.stringMatching(/^app-7\.example\.com\/new\/ /) }])
    expect(prefix.lines).toBe(tracked.cluster.files().get(FILES.prefixMap)!.split('\n').filter(Boolean).length)
    expect(mapUpdateFromLines(FILES.prefixMap, prefix)).toMatchObject({ how: 'entries', add: [{ key: 'app-7.example.com/new/' }], set: [], del: [] })
  })
})
