import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { committedRejections } from '../../../core/ingest/committed-rejections.ts'
import { ingest, namedObjects } from '../../../core/ingest/ingest.ts'
import { resyncEvents } from '../../../core/ingest/resync.ts'
import { committedWarnings } from '../../../core/reading/committed-warnings.ts'
import { putIngressWarnings } from '../../../core/ingest/write-warnings.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { workingState } from '../../../core/reading/head.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { openTrees } from '../../../core/reading/open-trees.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { app, coldContext, deleted, instantClock, modified } from '../../support/contracts/cluster-apps.ts'
import { ingress, ingressClass, service } from '../../support/objects.ts'

const CHUNK = 8

const cluster = (store: ObjectStore): CommitContext => ({ store, cluster: 'prod-eu', options: {}, context: coldContext(), clock: instantClock() })

const objects = [
  ingressClass('hapedge', true),
  ...Array.from({ length: 12 }, (_, i) => app(i, ['/', `/v${i}`])).flat(),
  ingress({ name: 'refused', rules: [{ host: 'refused_bad.example.com', paths: [{ service: 'app-1' }] }] }),
  ingress({
    name: 'annotated',
    annotations: { 'hapedge.io/no-such-annotation': 'on' },
    rules: [{ host: 'app-2.example.com', paths: [{ path: '/r', service: 'app-2' }] }],
  }),
]

/** A cluster's HEAD, its files, and the rejections and warnings its snapshot holds. */
async function committed(ctx: CommitContext) {
  const keys = clusterKeys(ctx.cluster)
  const { head } = (await readHead(ctx.store, keys))!
  const context = coldContext()
  const loader = new NodeLoader(ctx.store, keys, context)
  const { snapshot } = await openTrees(workingState(head), loader, context, keys)
  return {
    head,
    files: await readGeneration(ctx.store, ctx.cluster, head.manifest, coldContext()),
    rejected: await committedRejections(snapshot, loader),
    warnings: await committedWarnings(snapshot, loader),
  }
}

/** The path a resync took before: chunk after chunk, each its own generation. */
async function inChunks(ctx: CommitContext, events: readonly WatchEvent[]) {
  for (let start = 0; start < events.length; start += CHUNK) await commitEvents(ctx, events.slice(start, start + CHUNK))
}

describe('a resync into an empty cluster', () => {
  it('commits in one go: one generation, byte-equal to a full rebuild and to the chunked path, answered as it would be', async () => {
    const events = resyncEvents(undefined, objects)
    expect(events.length).toBeGreaterThan(3 * CHUNK)
    const filled = cluster(createMemoryStore())
    const answer = await ingest(filled, events, CHUNK)
    const chunked = cluster(createMemoryStore())
    await inChunks(chunked, events)

    const [one, reference] = [await committed(filled), await committed(chunked)]
    expect(answer.generation).toBe(1)
    expect(one.head.generation).toBe(1)
    expect(reference.head.generation).toBe(Math.ceil(events.length / CHUNK))
    expect(one.files).toEqual(fullRebuild(objects).files)
    // The same snapshot and manifest as the chunked path's, to the byte (both are named by the sha256 of their content).
    expect(one.head.snapshot).toEqual(reference.head.snapshot)
    expect(one.head.manifest).toBe(reference.head.manifest)
    // The answer names what the incremental path's state holds for the request's objects.
    const named = namedObjects(events)
    expect(answer.rejected).toEqual(reference.rejected.filter((rejection) => named.has(rejection.object)))
    expect(answer.rejected.map((rejection) => rejection.object)).toContain('Ingress default/refused')
    expect(answer.warnings).toEqual(reference.warnings.filter((warning) => named.has(warning.object)))
    expect(answer.warningCount).toBeGreaterThan(0)
    expect(answer).toMatchObject({ committed: true, reload: true, stale: 0 })
    expect(answer.changed.files).toBe(one.files.size)
  })

  it('leaves a snapshot that later events continue from, equal to a full rebuild of what they leave', async () => {
    const filled = cluster(createMemoryStore())
    await ingest(filled, resyncEvents(undefined, objects), CHUNK)
    const chunked = cluster(createMemoryStore())
    await inChunks(chunked, resyncEvents(undefined, objects))

    const [gone, moved] = [app(3)[0]!, service('app-4', [{ port: 8080 }])]
    const later = [deleted(gone), modified(moved), ...app(40).map(modified)]
    for (const ctx of [filled, chunked]) await ingest(ctx, later, CHUNK)

    const replaced = (object: (typeof objects)[number]) =>
      [gone, moved].some((other) => other.kind === object.kind && other.metadata.name === object.metadata.name)
    const after = [...objects.filter((object) => !replaced(object)), moved, ...app(40)]
    const [one, reference] = [await committed(filled), await committed(chunked)]
    expect(one.head.generation).toBe(2)
    expect(one.files).toEqual(fullRebuild(after).files)
    expect(one.head.snapshot).toEqual(reference.head.snapshot)
  })

  it('a cluster that holds more than the events bring still commits them in chunks', async () => {
    const ctx = cluster(createMemoryStore())
    const { generation } = await ingest(ctx, resyncEvents(undefined, objects), CHUNK)
    const changes = Array.from({ length: 12 }, (_, i) => modified(service(`app-${i}`, [{ port: 8000 + i }])))
    const answer = await ingest(ctx, changes, CHUNK)
    expect(answer.generation).toBe(generation! + Math.ceil(changes.length / CHUNK))
  })
})

describe("a write's answer", () => {
  it('reads the warnings of the Ingresses it put a step per Ingress, pausing between slices when given a pause: a resync puts thousands', async () => {
    const ctx = cluster(createMemoryStore())
    const annotated = Array.from({ length: 250 }, (_, i) =>
      ingress({
        name: `warned-${i}`,
        annotations: { 'hapedge.io/no-such-annotation': 'on' },
        rules: [{ host: `warned-${i}.example.com`, paths: [{ service: 'app-1' }] }],
      }),
    )
    const answer = await ingest(ctx, resyncEvents(undefined, [ingressClass('hapedge', true), ...app(1), ...annotated]))
    expect(answer.warnings).toHaveLength(annotated.length)
    const { head, warnings } = await committed(ctx)
    const { snapshot } = await openTrees(
      workingState(head),
      new NodeLoader(ctx.store, clusterKeys(ctx.cluster), ctx.context),
      ctx.context,
      clusterKeys(ctx.cluster),
    )
    let pauses = 0
    const keys = new Set(annotated.map((object) => `Ingress/default/${object.metadata.name}`))
    const sliced = await putIngressWarnings(ctx, snapshot, keys, async () => void pauses++)
    expect(sliced).toEqual(warnings)
    expect(pauses).toBeGreaterThan(0)
  })
})
