import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { objectKey } from '../../../core/kube/objects.ts'
import { changedRef, objectChange } from '../../../core/incremental/watch-event.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { workingState } from '../../../core/reading/head.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { runLoading } from '../../../core/reading/run-loading.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { DEFAULT_RESYNC_BUDGET } from '../../../core/resync/budget.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { arbitraryObject, identityOf } from '../../support/arbitrary-objects.ts'
import { coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { harness } from './app-harness.ts'
import { runs } from '../../support/property-runs.ts'

type AnyObject = Parameters<typeof identityOf>[0] & { metadata: Record<string, unknown> } & Record<string, unknown>

/**
 * A step: a watch event (a put at a version of its own, a change of the n-th object, or its deletion), or
 * a step of a paged resync: begin (the list is the objects then, a few of them at versions the
 * function has not seen, as when it missed events), send page n of that list (or,
 * `fresh`, of the objects now, as a page sent again after a relist), finish (sending the pages
 * not sent yet first), or abandon (DELETE, or left to expire). Two steps aim at what a staged item
 * must survive, too rare among random picks to be drawn otherwise (a step each): a page sent from
 * the list and then a watch event on an object it staged (newer than the list: the finish must not
 * undo it), and a page sent from the list and at once again from the objects now (the second
 * replaces what the first staged). A watch event while a session is open on an object its list
 * lacks (a put, or `recreate`: deleted and added again) is newer than the list too: the finish
 * keeps it. `gc` collects garbage keeping one generation, whatever the sessions open.
 */
const arbitraryStep = fc.oneof(
  { weight: 5, arbitrary: fc.record({ put: arbitraryObject }) },
  { weight: 3, arbitrary: fc.record({ touchPick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ deletePick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ begin: fc.integer({ min: 1, max: 4 }), drift: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ page: fc.nat(), fresh: fc.boolean() }) },
  { weight: 3, arbitrary: fc.constant({ finish: true as const }) },
  { weight: 1, arbitrary: fc.record({ abandon: fc.constantFrom('delete', 'expire') }) },
  { weight: 3, arbitrary: fc.record({ stagedWrite: fc.nat(), remove: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ twice: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ recreate: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ gc: true as const }) },
)

const withVersion = (object: AnyObject, version: string): AnyObject => ({ ...object, metadata: { ...object.metadata, resourceVersion: version } })

/** Which page of a session lists an object: its key decides, as a forwarder's sorted cut does, so no two pages list one object. */
function pageOf(id: string, pages: number): number {
  let hash = 7
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % pages
}

/** A page as sent: when, its items, and the ones that differed from the objects then (what the function stages). */
type SentPage = { at: number; items: Map<string, AnyObject>; staged: Set<string> }
type Session = { id: string; begun: number; pages: number; list: Map<string, AnyObject>; sent: Map<number, SentPage> }

/** The version the snapshot records for each object it holds (tombstones left out): each put has its own, so it names the object's state. */
async function storedVersions(store: ObjectStore): Promise<Map<string, string>> {
  const keys = clusterKeys('prod')
  const head = await readHead(store, keys)
  if (!head) return new Map()
  const context = coldContext()
  const snapshot = new Tree(SNAPSHOT_SHAPE, workingState(head.head).snapshot, context)
  const prefix = treeKey(TABLE.resourceVersion, '')
  const entries = await runLoading(() => [...snapshot.prefix(prefix)], new NodeLoader(store, keys, context))
  const versions = new Map<string, string>()
  for (const { key, value } of entries) {
    const seen = JSON.parse(value) as { version: string; deleted?: true }
    if (!seen.deleted) versions.set(key.slice(prefix.length), seen.version)
  }
  return versions
}

/** The versions the model's objects leave recorded: those hapedge reads, by the function's key. */
function modelVersions(objects: Iterable<AnyObject>): Map<string, string> {
  const versions = new Map<string, string>()
  for (const object of objects) {
    // An object of a kind hapedge reads in a form it does not (a Secret without users) is removed and keeps its version, as a resync of it does.
    const change = objectChange({ type: 'MODIFIED', object })
    if (!('ignore' in change)) versions.set(objectKey(changedRef(change)), String(object.metadata.resourceVersion))
  }
  return versions
}

describe('paged resyncs end as a full rebuild of the final objects', () => {
  it('pages in any order, sent again, interleaved with watch events, abandoned or expired: the files equal the full rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryStep, { minLength: 5, maxLength: 40, size: 'max' }), async (steps) => {
        // Ahead of the store's own clock, so that garbage collection's grace of 0 finds every object old.
        const clock = instantClock(Date.now() + 10 * 60_000)
        const h = harness({
          clock,
          limits: { resync: { ...DEFAULT_RESYNC_BUDGET, pageItems: 50, finishItems: 3, commitItems: 2, scanEntries: 4, rangeKeys: 2 } },
        })
        const token = await h.register('prod')
        const base = '/v1/clusters/prod/resync'
        /** The objects the cluster should hold (the model), and the step of the last write to each. */
        const live = new Map<string, AnyObject>()
        const written = new Map<string, number>()
        let session: Session | undefined
        const send = async (method: string, path: string, body: unknown, status: number) => {
          const answer = await h.call(method, path, token, body)
          if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
          return answer.status === 204 ? undefined : ((await answer.json()) as Record<string, unknown>)
        }
        const event = async (type: string, object: AnyObject) => send('POST', '/v1/clusters/prod/events', { events: [{ type, object }] }, 200)
        const touch = async (at: number, id: string, object: AnyObject) => {
          const touched = withVersion({ ...object, metadata: { ...object.metadata, labels: { touched: String(at) } } }, String(1000 + at))
          await event('MODIFIED', touched)
          live.set(id, touched)
          written.set(id, at)
        }
        const remove = async (at: number, id: string) => {
          await event('DELETED', live.get(id)!)
          live.delete(id)
          written.set(id, at)
        }
        const sendPage = async (at: number, s: Session, page: number, from: Map<string, AnyObject>) => {
          const items = new Map([...from].filter(([id]) => pageOf(id, s.pages) === page))
          const staged = new Set([...items].filter(([id, item]) => JSON.stringify(live.get(id)) !== JSON.stringify(item)).map(([id]) => id))
          await send('PUT', `${base}/${s.id}/pages/${page}`, { apiVersion: 'v1', kind: 'List', items: [...items.values()] }, 200)
          s.sent.set(page, { at, items, staged })
        }

        /** Sends the pages not sent yet, finishes until done, and moves the model as the finish should have. */
        const finish = async (at: number, s: Session) => {
          for (let page = 0; page < s.pages; page++) if (!s.sent.has(page)) await sendPage(at, s, page, s.list)
          // Until done: any answer but 202 and 200 fails the case (a finish that found its nodes collected answered 500).
          while ((await h.call('POST', `${base}/${s.id}/finish`, token, { pages: s.pages })).status === 202);
          await send('POST', `${base}/${s.id}/finish`, { pages: s.pages }, 200)
          // The model: a staged item applies unless its object was written after its page; then what no page listed goes, unless written since the begin.
          const listed = new Set<string>()
          for (const page of s.sent.values()) {
            for (const [id, item] of page.items) {
              listed.add(id)
              if (!page.staged.has(id) || (written.get(id) ?? -1) > page.at) continue
              live.set(id, item)
              written.set(id, at)
            }
          }
          for (const id of [...live.keys()].filter((id) => !listed.has(id) && (written.get(id) ?? -1) < s.begun)) {
            live.delete(id)
            written.set(id, at)
          }
        }

        for (const [at, step] of steps.entries()) {
          if ('put' in step) {
            const object = withVersion(step.put as AnyObject, String(1000 + at))
            const id = identityOf(object)
            await event(live.has(id) ? 'MODIFIED' : 'ADDED', object)
            live.set(id, object)
            written.set(id, at)
          } else if ('touchPick' in step) {
            if (live.size === 0) continue
            const [id, object] = [...live][step.touchPick % live.size]!
            await touch(at, id, object)
          } else if ('deletePick' in step) {
            if (live.size === 0) continue
            await remove(at, [...live.keys()][step.deletePick % live.size]!)
          } else if ('stagedWrite' in step) {
            // Page n from the list, then a write to one of the objects it staged.
            if (!session) continue
            const page = step.stagedWrite % session.pages
            await sendPage(at, session, page, session.list)
            const staged = [...session.sent.get(page)!.staged].filter((id) => live.has(id))
            if (staged.length === 0) continue
            const id = staged[step.stagedWrite % staged.length]!
            // Later than the page within the step: the model orders writes and pages by `at`.
            if (step.remove) await remove(at + 0.5, id)
            else await touch(at + 0.5, id, live.get(id)!)
          } else if ('recreate' in step) {
            if (live.size === 0) continue
            const [id, object] = [...live][step.recreate % live.size]!
            await remove(at, id)
            const again = withVersion(object, String(1000 + at))
            await event('ADDED', again)
            live.set(id, again)
          } else if ('gc' in step) {
            await collectGarbage(h.store, 'prod', coldContext(), { keep: 1, graceMs: 0, clock })
          } else if ('twice' in step) {
            if (!session) continue
            await sendPage(at, session, step.twice % session.pages, session.list)
            await sendPage(at, session, step.twice % session.pages, live)
          } else if ('begin' in step) {
            if (session) continue
            const { session: id } = (await send('POST', base, undefined, 201)) as { session: string }
            const list = new Map(live)
            for (const [i, pick] of step.drift.entries()) {
              if (list.size === 0) break
              const [driftId, object] = [...list][pick % list.size]!
              list.set(driftId, withVersion({ ...object, metadata: { ...object.metadata, labels: { listed: String(at) } } }, `L${at}-${i}`))
            }
            session = { id, begun: at, pages: step.begin, list, sent: new Map() }
          } else if ('page' in step) {
            if (session) await sendPage(at, session, step.page % session.pages, step.fresh ? live : session.list)
          } else if ('finish' in step) {
            if (!session) continue
            await finish(at, session)
            session = undefined
          } else if ('abandon' in step) {
            if (!session) continue
            if (step.abandon === 'delete') await send('DELETE', `${base}/${session.id}`, undefined, 204)
            else clock.advance(DEFAULT_RESYNC_BUDGET.ttlMs)
            session = undefined
          }
        }
        // A session still open at the end is finished, as its forwarder would: every session drawn is checked, unless abandoned.
        if (session) await finish(steps.length, session)
        const head = await readHead(h.store, clusterKeys('prod'))
        const files = head ? await readGeneration(h.store, 'prod', head.head.manifest, coldContext()) : fullRebuild([]).files
        expect(files).toEqual(fullRebuild(live.values()).files)
        expect(new Map([...(await storedVersions(h.store))].sort())).toEqual(new Map([...modelVersions(live.values())].sort()))
      }),
      { numRuns: runs(60) },
    )
  }, 120_000)
})
