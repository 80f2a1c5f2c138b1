import { z } from 'zod'
import { writeAnswer } from '../api/write-answer.ts'
import { committedState } from '../reading/head.ts'
import { pageOrder } from './page-order.ts'

const count = z.number().int().min(0)

/** What the finish has done so far, recorded after each slice so that a retried or interrupted finish resumes there. */
export const finishProgress = z.object({
  pages: count,
  /** Each page's first and last listed key (null: it listed none), read once as the finish begins. */
  bounds: z.array(z.tuple([z.string(), z.string()]).nullable()),
  /** Where the key ranges the stale phase scans begin (see rangeStarts). */
  ranges: z.array(z.string()).min(1),
  phase: z.enum(['apply', 'stale', 'done']),
  /** The pages in the order the apply phase takes them (see pageOrder); a record from before it took them in number order. */
  order: z.array(count).optional(),
  /** The apply phase: how many pages of `order` are applied (the next is `order[nextPage]`), and the first of its items not applied yet. */
  nextPage: count,
  nextItem: count,
  /** Staged items per commit once a commit of more read more nodes than the cluster's node cache may hold for it (halved each time, doubled again after the budget's growAfter commits): the budget's commitItems until then. */
  commitItems: count.min(1).optional(),
  /** Slices committed at `commitItems` since it last changed: after the budget's growAfter of them it doubles (finish.ts). */
  committedAtSize: count.optional(),
  /** The stale phase: the key range (see staleRanges), the stored table and the first key in it not scanned yet. */
  cursor: z.object({ range: count, table: count, from: z.string() }),
  applied: count,
  /** Staged items not applied because their object changed after their page was staged (a newer write wins). */
  superseded: count,
  deleted: count,
  /** Stored objects no page listed that were not deleted: written since the session began, newer than the list (absent before it was counted). */
  kept: count.optional(),
  totals: z.object({ committed: z.boolean(), files: count, bytes: count, reload: z.boolean(), reasons: z.array(z.string()), stale: count }),
  /** The answer, once done: a finish called again answers it again. */
  answer: writeAnswer.optional(),
})

/** A paged resync's record (`clusters/<id>/resync/<session>/session`). */
export const resyncSession = z.object({
  session: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  pageItems: z.number().int().min(1),
  /**
   * The cluster's working state when the session began (null: it had none): the finish deletes a
   * stored object no page listed only if this held it as it is now, so a write since then, newer
   * than the list, is kept; the garbage collection keeps its nodes while the session lives.
   * Absent from a session begun before it was recorded: its finish deletes every one, as then.
   */
  begin: committedState.nullable().optional(),
  finish: finishProgress.optional(),
})

export type FinishProgress = z.infer<typeof finishProgress>
export type ResyncSession = z.infer<typeof resyncSession>

/** A session id: what `POST …/resync` makes (a UUID), so a path segment can never name another key. */
export const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function newSession(session: string, now: Date, ttlMs: number, pageItems: number, begin?: ResyncSession['begin']): ResyncSession {
  return {
    session,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
    pageItems,
    ...(begin !== undefined ? { begin } : {}),
  }
}

/**
 * The session as its finish records a step: its time runs from that step, never shorter than it was.
 * A finish that takes longer than a session's time (100,000 objects through a slow store) keeps it
 * live while it goes on; one left unfinished still expires that long after its last step.
 */
export function renewed(session: ResyncSession, now: Date, ttlMs: number): ResyncSession {
  const expiresAt = Math.max(Date.parse(session.expiresAt), now.getTime() + ttlMs)
  return { ...session, expiresAt: new Date(expiresAt).toISOString() }
}

/** A session past its time changes nothing more: its pages are never applied, and the garbage job deletes them. */
export function hasExpired(session: ResyncSession, now: Date): boolean {
  return now.getTime() >= Date.parse(session.expiresAt)
}

export const sessionText = (session: ResyncSession) => `${JSON.stringify(session)}\n`

/** A stored record, parsed; undefined when it is not one (a session being written, or another version's). */
export function parseSession(bytes: Uint8Array): ResyncSession | undefined {
  try {
    const parsed = resyncSession.safeParse(JSON.parse(new TextDecoder().decode(bytes)))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** The progress of a finish that begins: every page's bounds known, the order its pages apply in, nothing applied yet. */
export function beginFinish(bounds: FinishProgress['bounds'], ranges: string[]): FinishProgress {
  return {
    pages: bounds.length,
    bounds,
    ranges,
    order: pageOrder(bounds),
    phase: bounds.length === 0 ? 'stale' : 'apply',
    nextPage: 0,
    nextItem: 0,
    cursor: { range: 0, table: 0, from: '' },
    applied: 0,
    superseded: 0,
    deleted: 0,
    kept: 0,
    totals: { committed: false, files: 0, bytes: 0, reload: false, reasons: [], stale: 0 },
  }
}
