import { z } from 'zod'
import type { IngestResult } from '../ingest/ingest.ts'
import type { AuditTranslation } from '../ingest/audit-events.ts'
import type { Assert, Same } from './same-type.ts'

const count = z.number().int().min(0)

/** `Ingress shop/web` and why it is not served. */
export const rejection = z.object({ object: z.string(), reason: z.string() })

/** An annotation of an Ingress that hapedge does not honour as written, and why. */
export const annotationWarning = z.object({ object: z.string(), annotation: z.string(), reason: z.string() })

/** What the writes (`POST …/events`, `PUT …/objects`) answer; see the README's HTTP API. */
export const writeAnswer = z.object({
  generation: z.number().int().min(1).nullable(),
  manifest: z.string().nullable(),
  committed: z.boolean(),
  changed: z.object({ files: count, bytes: count }),
  reload: z.boolean(),
  reasons: z.array(z.string()),
  rejected: z.array(rejection),
  // Defaults, so an answer from a version before warnings still parses.
  warnings: z.array(annotationWarning).default([]),
  warningCount: count.default(0),
  ignored: z.object({ otherClass: count, noDefaultClass: count }).nullable(),
  stale: count,
  pinned: z.object({ generation: z.number().int().min(1), since: z.string(), held: count }).optional(),
})

/** `POST …/audit` answers a write's fields and what of the batch it did not apply. */
export const auditAnswer = writeAnswer.extend({
  skipped: count,
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
})

export type WriteAnswer = z.infer<typeof writeAnswer>
export type AuditAnswer = z.infer<typeof auditAnswer>

// What core computes is what the schema says: a field added to one and not the other fails to compile.
export type WriteAnswerIsIngestResult = Assert<Same<WriteAnswer, IngestResult>>
export type AuditAnswerAddsTranslation = Assert<Same<Omit<AuditAnswer, keyof WriteAnswer>, Omit<AuditTranslation, 'events'>>>
