import { z } from 'zod'
import { writeAnswer } from './write-answer.ts'

const count = z.number().int().min(0)

/** `POST …/resync`'s optional body: the size of the list about to be sent (its items, and their bytes as JSON). */
export const resyncBeginBody = z.strictObject({ items: count, bytes: count }).partial()

/** `POST …/resync` (201): the session's id, when it expires, and the most items a page may hold. */
export const resyncBegunAnswer = z.object({ session: z.string(), expiresAt: z.string(), pageItems: z.number().int().min(1) })

/** `POST …/resync` (200) for a list the function takes whole: send it as one `PUT …/objects`; no session began. */
export const resyncWholeAnswer = z.object({ whole: z.literal(true), items: count, bytes: count })

export const resyncBeginAnswer = z.union([resyncBegunAnswer, resyncWholeAnswer])

/** `PUT …/resync/{session}/pages/{n}`: the page's items, and how many of them differ from the cluster now (staged). */
export const resyncPageAnswer = z.object({ page: count, items: count, changed: count })

/** What a finish did with the staged items and the stored objects no page listed, in all its requests. */
const finishedCounts = z.object({
  applied: count,
  /** Staged items not applied: their object changed after their page came (the newer write stays). */
  superseded: count,
  deleted: count,
  /** Stored objects no page listed, kept: written since the session began, newer than the list (a function before it said nothing). */
  kept: count.optional(),
})

/** `POST …/resync/{session}/finish` once everything is applied: the write answer of `PUT …/objects`, and what the finish did (a function before it said nothing). */
export const resyncFinishedAnswer = writeAnswer.extend({ done: z.literal(true), resync: finishedCounts.optional() })

/** `POST …/resync/{session}/finish` (202) when the request's budget ran out: call finish again, it goes on from here. */
export const resyncProgressAnswer = z.object({
  done: z.literal(false),
  progress: z.object({
    phase: z.enum(['apply', 'stale']),
    pages: count,
    /** Pages applied so far. */
    nextPage: count,
    applied: count,
    /** Staged items not applied: their object changed after their page came (the newer write stays). */
    superseded: count,
    deleted: count,
    kept: count.optional(),
  }),
})

export const resyncFinishAnswer = z.discriminatedUnion('done', [resyncFinishedAnswer, resyncProgressAnswer])

export type ResyncBegunAnswer = z.infer<typeof resyncBegunAnswer>
export type ResyncWholeAnswer = z.infer<typeof resyncWholeAnswer>
export type ResyncBeginAnswer = z.infer<typeof resyncBeginAnswer>
export type ResyncPageAnswer = z.infer<typeof resyncPageAnswer>
export type ResyncFinishedAnswer = z.infer<typeof resyncFinishedAnswer>
export type ResyncProgressAnswer = z.infer<typeof resyncProgressAnswer>
export type ResyncFinishAnswer = z.infer<typeof resyncFinishAnswer>
