import { z } from 'zod'
import { head } from '../reading/head.ts'

/**
 * `GET …/head`: the current generation, its manifest and snapshot; with `?have=`, also `blobs`,
 * the texts a reader of that generation lacks, by sha256 (checked by the reader, not here).
 */
export const headAnswer = head.pick({ generation: true, manifest: true, snapshot: true }).extend({
  blobs: z.record(z.string(), z.string()).optional(),
})

export type HeadAnswer = z.infer<typeof headAnswer>
