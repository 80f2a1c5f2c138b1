import type { Plan } from '../plan/plan.ts'
import { systemClock, type Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import { clusterKeys, type ClusterKeys } from '../keys/cluster-keys.ts'
import { UnknownGeneration } from '../reading/errors.ts'
import { CommitContention, NotPinned } from './errors.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { recordGeneration } from './record-generation.ts'
import { ensureHeadRecord } from './head-record.ts'
import { workingState, type CommittedState, type GenerationRecord, type Head } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { planBetween } from './plan-between.ts'
import { readHead } from '../reading/read-head.ts'

export interface PinContext {
  store: ObjectStore
  cluster: string
  context: TreeContext
  clock?: Clock
  attempts?: number
}

export interface Moved {
  head: Head
  /** False when the served content did not change (a rollback to what is served, a release with nothing held). */
  changed: boolean
  plan: Plan
  files: string[]
  warnings: string[]
}

/** What HEAD moves to: the state to serve, whether the cluster stays pinned, and why. */
interface Target {
  state: CommittedState
  pin: Head['pin']
  origin: NonNullable<GenerationRecord['origin']>
}

/**
 * Rolls a cluster back to a retained generation: a new generation whose content is that one's,
 * committed and applied like any other, which pins the cluster. Events go on being applied to
 * its latest state while pinned, and are served when the pin is released.
 */
export function rollback(ctx: PinContext, to: number): Promise<Moved> {
  const keys = clusterKeys(ctx.cluster)
  const clock = ctx.clock ?? systemClock
  return moveHead(ctx, keys, clock, async (head) => {
    if (to === head.generation && !head.pin) return { state: head, pin: pinOf(head, to, clock), origin: { kind: 'rollback', to } }
    const record = to === head.generation ? head : await readGenerationRecord(ctx.store, keys, to)
    if (!record || to > head.generation) throw new UnknownGeneration(ctx.cluster, to)
    return { state: { manifest: record.manifest, snapshot: record.snapshot }, pin: pinOf(head, to, clock), origin: { kind: 'rollback', to } }
  })
}

/** Ends a pin: the cluster's latest state (every change made since the rollback) is served as a new generation. */
export function release(ctx: PinContext): Promise<Moved> {
  const keys = clusterKeys(ctx.cluster)
  return moveHead(ctx, keys, ctx.clock ?? systemClock, async (head) => {
    if (!head.pin) throw new NotPinned(ctx.cluster)
    return { state: head.pin.latest, pin: undefined, origin: { kind: 'release' } }
  })
}

/** A pin on what the cluster has now: a second rollback keeps the latest state the first one held. */
function pinOf(head: Head, generation: number, clock: Clock): NonNullable<Head['pin']> {
  return { generation, since: clock.now().toISOString(), latest: workingState(head), held: head.pin?.held ?? 0 }
}

async function moveHead(ctx: PinContext, keys: ClusterKeys, clock: Clock, decide: (head: Head) => Promise<Target>): Promise<Moved> {
  const attempts = ctx.attempts ?? 6
  const loader = new NodeLoader(ctx.store, keys, ctx.context)
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const current = await readHead(ctx.store, keys)
    if (!current) throw new UnknownGeneration(ctx.cluster, undefined)
    if (current.head.collecting && Date.parse(current.head.collecting.until) > clock.now().getTime()) {
      await clock.sleep(100 * attempt)
      continue
    }
    const target = await decide(current.head)
    const { files, plan } = await planBetween(current.head.manifest, target.state.manifest, loader, ctx.context)
    const changed = files.length > 0 || target.state.snapshot.sha256 !== current.head.snapshot.sha256
    const { pin: _pin, collecting: _collecting, ...served } = current.head
    const made = { parent: served.manifest, committedAt: clock.now().toISOString(), origin: target.origin }
    const head: Head = changed
      ? { generation: served.generation + 1, revision: served.revision + 1, ...target.state, ...made, ...(target.pin ? { pin: target.pin } : {}) }
      : { ...served, revision: served.revision + 1, ...(target.pin ? { pin: target.pin } : {}) }
    // HEAD's generation keeps its record when HEAD moves past it, though a crash kept its commit from writing it.
    if (changed) await ensureHeadRecord(ctx.store, keys, current.head, loader, ctx.context, clock)
    if ((await ctx.store.put(keys.head, `${JSON.stringify(head)}\n`, { ifMatch: current.etag })) === undefined) {
      await clock.sleep(25 * 2 ** attempt * (0.5 + clock.random()))
      continue
    }
    const warnings = changed ? await recordGeneration(ctx.store, keys, head, { plan, files }, clock) : []
    return { head, changed, plan, files, warnings }
  }
  throw new CommitContention(ctx.cluster, attempts, 1)
}
