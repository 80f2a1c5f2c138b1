import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import { preload } from '../../../core/commit/preload.ts'
import { likelyReads, likelyReadSteps } from '../../../core/incremental/likely-reads.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { workingState } from '../../../core/reading/head.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { openTrees } from '../../../core/reading/open-trees.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { toTlsSecret } from '../../support/certificates.ts'
import { added, app, coldContext, deleted, instantClock, modified } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { fileShape } from '../../../core/generation/file-shapes.ts'
import { certificateFile } from '../../../core/render/files.ts'
import { crtListsOf } from '../../../core/render/render-tls.ts'
import { MissingNodes, type TreeRoot } from '../../../core/tree/node.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { SLICE_STEPS } from '../../../core/slices.ts'

const context = (store: ObjectStore): CommitContext => ({ store, cluster: 'prod-eu', options: {}, context: coldContext(), clock: instantClock() })

const APPS = 300
const SHARED = 'shared.example.com'
const shop = fixtureCertificate('shop.example.com')
const secretOf = (n: number) => toTlsSecret({ namespace: 'default', name: `app-${n}-tls`, ...shop })

/** A cluster of APPS apps, each with a TLS Secret, the first `sharing` of them also given a path of one shared host (to app 0, or to `serviceOf` theirs). */
async function cluster(sharing: number, serviceOf = (_n: number) => 'app-0'): Promise<ObjectStore> {
  const store = createMemoryStore()
  const objects = Array.from({ length: APPS }, (_, n) => {
    const [own, ...rest] = app(n)
    const routes = n < sharing ? ingress({ name: `shared-${n}`, rules: [{ host: SHARED, paths: [{ path: `/app-${n}`, service: serviceOf(n) }] }] }) : undefined
    return [own, ...rest, secretOf(n), ...(routes ? [routes] : [])]
  }).flat()
  await commitEvents(context(store), objects.map(added))
  return store
}

/** The store's newest trees, opened over a cold cache, and the loader that loads into it. */
async function coldTrees(store: ObjectStore) {
  const keys = clusterKeys('prod-eu')
  const context = coldContext()
  const loader = new NodeLoader(store, keys, context)
  return { loader, trees: await openTrees(workingState((await readHead(store, keys))!.head), loader, context, keys) }
}

const TEAMS = 40

/** Team t's Ingress on the shared host (or on a host of its own): a path of its own, to its Service. */
const teamShared = (t: number, shares: boolean, path = `/team-${t}`) =>
  ingress({ name: 'shared', namespace: `team-${t}`, rules: [{ host: shares ? SHARED : `team-${t}.example.com`, paths: [{ path, service: 'web' }] }] })

/** A team's namespace: 30 Ingresses on hosts of their own and one that may be on the shared host, all to its one Service. */
const team = (t: number, shares: boolean) => {
  const namespace = `team-${t}`
  const own = Array.from({ length: 30 }, (_, n) =>
    ingress({ name: `site-${n}`, namespace, rules: [{ host: `site-${n}.${namespace}.example.com`, paths: [{ service: 'web' }] }] }),
  )
  return [...own, teamShared(t, shares), service('web', [{ port: 80 }], namespace), endpointSlice('web', [`10.1.${t}.1`], undefined, { namespace })]
}

/** A new Ingress on its own host that leads to app n's Service with app n's Secret, and on the shared host when asked. */
const newIngress = (n: number, shared = false) =>
  ingress({
    name: `new-${n}`,
    tls: [{ hosts: [`new-${n}.example.com`], secretName: `app-${n}-tls` }],
    rules: [
      { host: `new-${n}.example.com`, paths: [{ service: `app-${n}` }] },
      ...(shared ? [{ host: SHARED, paths: [{ path: `/new-${n}`, service: `app-${n}` }] }] : []),
    ],
  })

/**
 * A cold commit (a function's first request, or a resync's finish whose cache has evicted the
 * cluster) runs its change again from the start for each node it finds missing: what the
 * events name must load before it runs, a tree level per round, however many objects they name.
 */
describe('what a cold commit loads before it runs', () => {
  it('loads the Services and Secrets new Ingresses name in as many rounds for many Ingresses as for a few', async () => {
    const store = await cluster(0)
    const rounds = async (count: number) => {
      const cold = await commitEvents(
        context(store),
        Array.from({ length: count }, (_, i) => added(newIngress(Math.floor((i * APPS) / count)))),
      )
      expect(cold.committed).toBe(true)
      return cold.loaded.rounds
    }
    const few = await rounds(3)
    // Spread over the whole object table: each missed alone, they were a round (and a rerun of the change) each.
    // Leaves are cut narrowly (isNarrowBoundary): an insertion's re-cut may take in the next leaf, read as the
    // change runs, a round per leaf of the longest such re-cut (here 11 rounds for 60, 10 for 3).
    expect(await rounds(60)).toBeLessThanOrEqual(few + 2)
  })

  it('runs a change of many Ingresses a few times more than one of a few, not once more per node it finds missing', async () => {
    const rounds = async (count: number, event: (n: number) => ReturnType<typeof added>) => {
      const cold = await commitEvents(
        context(await cluster(0)),
        Array.from({ length: count }, (_, i) => event(Math.floor((i * APPS) / count))),
      )
      expect(cold.committed).toBe(true)
      return cold.loaded.rounds
    }
    // What a deleted or changed Ingress served (its backends' entries and sections, the next node a
    // re-cut takes in) is read only as the change runs: a run goes on past a miss and names them all.
    const gone = (n: number) => deleted(app(n)[0])
    expect(await rounds(60, gone)).toBeLessThanOrEqual((await rounds(3, gone)) + 3)
    const changed = (n: number) => modified(app(n, ['/', '/more'])[0])
    expect(await rounds(60, changed)).toBeLessThanOrEqual((await rounds(3, changed)) + 3)
  })

  it("loads the objects and map lines of a host's other Ingresses in as many rounds for many as for some", async () => {
    const rounds = async (sharing: number) => {
      const cold = await commitEvents(context(await cluster(sharing)), [added(newIngress(0, true))])
      expect(cold.committed).toBe(true)
      return cold.loaded.rounds
    }
    // Both spread over several leaves of the object table and of each host map: five times the
    // members may take a level more of the index, not a round per leaf they lie in.
    const some = await rounds(APPS / 5)
    expect(await rounds(APPS)).toBeLessThanOrEqual(some + 1)
  })

  it("reads the uses of the backends a host's change adds or drops, not of every backend the host's Ingresses use", async () => {
    const loaded = async (serviceOf?: (n: number) => string) => {
      const cold = await commitEvents(context(await cluster(APPS, serviceOf)), [added(newIngress(0, true))])
      expect(cold.committed).toBe(true)
      return cold.loaded.nodes
    }
    // The same Ingresses on the host, to one backend or each to its own: re-adding and releasing
    // every one read each leaf of the uses table they lie in (108 nodes against 104 here; at
    // 100,000 objects, 47 leaves and their parents, 0.65 M characters, for one Ingress).
    expect(await loaded((n) => `app-${n}`)).toBe(await loaded())
  })

  it("reads a shared host's other Ingresses from the host's own range, not the object leaf of each one's namespace", async () => {
    const loaded = async (sharing: number) => {
      const store = createMemoryStore()
      await commitEvents(
        context(store),
        Array.from({ length: TEAMS }, (_, t) => team(t, t < sharing))
          .flat()
          .map(added),
      )
      const cold = await commitEvents(context(store), [modified(teamShared(0, true, '/team-0-v2'))])
      expect(cold.committed).toBe(true)
      return cold.loaded
    }
    const few = await loaded(8)
    const all = await loaded(TEAMS)
    // The same objects, 8 or 40 teams on the host. Each team's Ingress there lies in a leaf of its own in the object table
    // (more than 24 objects apart): read through it, 32 teams more loaded 35 nodes and 381 K characters more (11.9 K a
    // team); from the host table, which holds a host's Ingresses adjacent, 4 nodes and 17 K.
    expect(all.nodes - few.nodes).toBeLessThanOrEqual(10)
    expect((all.chars - few.chars) / (TEAMS - 8)).toBeLessThan(2_000)
  })

  it('loads nothing of what an Ingress names when it is stored already: a change of its paths reads what is served', async () => {
    const store = await cluster(0)
    const loads = async (event: ReturnType<typeof added>) => {
      const keys = clusterKeys('prod-eu')
      const context = coldContext()
      const loader = new NodeLoader(store, keys, context)
      const current = await readHead(store, keys)
      const trees = await openTrees(workingState(current!.head), loader, context, keys)
      const reads = likelyReads([event])
      await preload(trees.snapshot, trees.manifest, { ...reads, ifNew: undefined }, loader)
      const narrow = loader.stats.nodes
      await preload(trees.snapshot, trees.manifest, reads, loader, Number.POSITIVE_INFINITY)
      return loader.stats.nodes - narrow
    }
    const [own] = app(7)
    // The new Ingress's Service, slices and Secret are in leaves of their own; the stored one's, none.
    expect(await loads(added(newIngress(7)))).toBeGreaterThan(0)
    expect(await loads(modified(own))).toBe(0)
  })

  it('loads what new Ingresses name within its budget: none with none', async () => {
    const { loader, trees } = await coldTrees(await cluster(0))
    const reads = likelyReads(Array.from({ length: 20 }, (_, i) => added(newIngress(i * 7))))
    await preload(trees.snapshot, trees.manifest, reads, loader, 0)
    const narrow = loader.stats.nodes
    await preload(trees.snapshot, trees.manifest, { ...reads, ifNew: undefined }, loader)
    expect(loader.stats.nodes).toBe(narrow)
  })

  it('descends a resync’s many keys in slices when given a pause, loading the nodes it loads at once', async () => {
    const store = await cluster(0)
    const keys = clusterKeys('prod-eu')
    const preloaded = async (pause?: () => Promise<void>) => {
      const context = coldContext()
      const loader = new NodeLoader(store, keys, context)
      const trees = await openTrees(workingState((await readHead(store, keys))!.head), loader, context, keys)
      const before = loader.stats.nodes
      await preload(trees.snapshot, trees.manifest, likelyReads(Array.from({ length: APPS }, (_, n) => modified(app(n)[0]!))), loader, 0, pause)
      return loader.stats.nodes - before
    }
    let pauses = 0
    const sliced = await preloaded(async () => void pauses++)
    // Hundreds of keys a round are more steps than one slice holds.
    expect(pauses).toBeGreaterThan(0)
    expect(sliced).toBe(await preloaded())
  })

  it('names what a resync’s many new Ingresses read, and merges it, in slices when given a pause: a step per Ingress each', async () => {
    const { loader, trees } = await coldTrees(await cluster(0))
    const events = Array.from({ length: 3 * SLICE_STEPS }, (_, n) => added(newIngress(APPS + n)))
    let steps = 0
    for (const naming = likelyReadSteps(events); !naming.next().done; ) steps++
    expect(steps).toBe(events.length)
    const reads = likelyReads(events)
    // Their object keys' paths loaded (so the preload can tell they are new), then nothing but what they name if new, within no budget.
    await preload(trees.snapshot, trees.manifest, { ...reads, ifNew: undefined }, loader)
    let pauses = 0
    await preload(trees.snapshot, trees.manifest, { snapshot: [], files: new Map(), ifNew: reads.ifNew }, loader, 0, async () => void pauses++)
    // Three slices of the check that each is new, three of merging what they name: before, both ran whole between two pauses.
    expect(pauses).toBeGreaterThanOrEqual(6)
  })

  it('loads a changed Secret’s line in each HTTPS port’s crt-list of its own, beside the HTTPS bind’s', async () => {
    const gatewayPorts = [{ port: 8443, protocol: 'HTTPS' as const, bind: '0.0.0.0:8443' }]
    const store = createMemoryStore()
    const portContext = (): CommitContext => ({ ...context(store), options: { gatewayPorts } })
    // A Gateway's most listeners (64), each with a certificate on the port; a cold cache holds none of its list's nodes.
    const listeners = Array.from({ length: 64 }, (_, n) => ({
      name: `tls-${n}`,
      protocol: 'HTTPS',
      port: 8443,
      hostname: `app-${n}.example.com`,
      certificate: `app-${n}-tls`,
    }))
    const objects = [gatewayClass(), gateway('edge', listeners), httpRoute({ name: 'apps', rules: [{ backends: [{ service: 'app-0' }] }] }), ...app(0)]
    await commitEvents(portContext(), [...objects, ...Array.from({ length: APPS }, (_, n) => secretOf(n))].map(added))
    const keys = clusterKeys('prod-eu')
    const cold = coldContext()
    const loader = new NodeLoader(store, keys, cold)
    const trees = await openTrees(workingState((await readHead(store, keys))!.head), loader, cold, keys)
    const secret = secretOf(32)
    await preload(trees.snapshot, trees.manifest, likelyReads([modified(secret)], { gatewayPorts }), loader)
    const line = (path: string) => {
      const root = trees.manifest.get(path)
      return root && new Tree(fileShape(path)!, JSON.parse(root) as TreeRoot, cold).get(certificateFile(`default/${secret.metadata.name}`))
    }
    const lines = crtListsOf(gatewayPorts).map((path) => {
      try {
        return line(path)
      } catch (error) {
        if (error instanceof MissingNodes) return `${path}: not loaded`
        throw error
      }
    })
    // The HTTPS bind has no list (no line); the port's list has the Secret's line, read without a miss (a rerun of the commit).
    expect(lines).toEqual([undefined, expect.stringContaining('app-')])
  })
})
