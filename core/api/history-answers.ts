import { z } from 'zod'
import type { GenerationDiff } from '../fleet/generation-diff.ts'
import type { GenerationSummary, HistoryPage } from '../fleet/generation-history.ts'
import { generationRecord, type PinSummary } from '../reading/head.ts'
import type { Assert, Same } from './same-type.ts'

const count = z.number().int().min(0)
const generationNumber = z.number().int().min(1)

/** A rollback's pin as the admin answers show it: the generation served, since when, and the changes held. */
export const pinSummaryAnswer = z.object({ generation: generationNumber, since: z.string(), held: count })

/** One retained generation in `GET …/generations`. */
export const generationSummaryAnswer = z.object({
  generation: generationNumber,
  manifest: z.string(),
  committedAt: z.string(),
  files: z.array(z.string()),
  reload: z.boolean(),
  reasons: z.array(z.string()),
  runtime: z.object({ maps: count, servers: count, certificates: count }),
  origin: generationRecord.shape.origin.unwrap().nullable(),
})

/** `GET …/generations`: the current generation, the pin if any, and a page of retained generations, newest first. */
export const historyAnswer = z.object({
  current: generationNumber.nullable(),
  pinned: pinSummaryAnswer.nullable(),
  generations: z.array(generationSummaryAnswer),
  next: generationNumber.nullable(),
})

const change = z.enum(['added', 'removed', 'changed'])
const beforeAfter = <T extends z.ZodType>(value: T) => z.object({ before: value.nullable(), after: value.nullable() })

/** `GET …/diff`: files, routes and hosts that differ between two retained generations. */
export const diffAnswer = z.object({
  from: generationNumber,
  to: generationNumber,
  files: z.array(z.object({ path: z.string(), change, bytes: beforeAfter(count) })),
  routes: z.array(z.object({ host: z.string(), match: z.string(), path: z.string(), change, backend: beforeAfter(z.string()) })),
  hosts: z.array(z.object({ host: z.string(), tls: beforeAfter(z.string()), redirectToHttps: beforeAfter(z.boolean()) })),
})

/** `POST …/rollback` and `POST …/release`: where HEAD moved, whether the served content changed, and how HAProxy takes it. */
export const movedAnswer = z.object({
  generation: generationNumber,
  manifest: z.string(),
  changed: z.boolean(),
  files: z.array(z.string()),
  reload: z.boolean(),
  reasons: z.array(z.string()),
  pinned: pinSummaryAnswer.nullable(),
  warnings: z.array(z.string()),
})

export type PinSummaryAnswer = z.infer<typeof pinSummaryAnswer>
export type GenerationSummaryAnswer = z.infer<typeof generationSummaryAnswer>
export type HistoryAnswer = z.infer<typeof historyAnswer>
export type DiffAnswer = z.infer<typeof diffAnswer>
export type MovedAnswer = z.infer<typeof movedAnswer>

export type PinSummaryAnswerIsPinSummary = Assert<Same<PinSummaryAnswer, PinSummary>>
export type GenerationSummaryAnswerIsGenerationSummary = Assert<Same<GenerationSummaryAnswer, GenerationSummary>>
export type HistoryAnswerAddsCurrentAndPin = Assert<Same<Omit<HistoryAnswer, 'current' | 'pinned'>, HistoryPage>>
export type DiffAnswerIsGenerationDiff = Assert<Same<DiffAnswer, GenerationDiff>>
