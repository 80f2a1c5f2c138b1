import { z } from 'zod'
import { headAnswer } from './head-answer.ts'

/**
 * Bytes of blobs a signed push carries at most: the nodes a change adds are some 20 KB at 20,000 Ingresses;
 * an agent further behind fetches what does not fit, as it would with HEAD's answer.
 */
export const PUSH_DELTA_BYTES = 1024 * 1024

/**
 * `POST <notifyUrl>/notify`, the function's push: the generation HEAD names; to an agent run that can
 * check it, also signed for that run (`signature`) and with the blobs it lacks by sha256 (checked by
 * the agent as HEAD's answer's are). Unsigned, it carries no authority: the agent reads HEAD itself.
 */
export const pushBody = headAnswer.pick({ generation: true, manifest: true, blobs: true }).extend({
  signature: z.string().max(128).optional(),
})

export type PushBody = z.infer<typeof pushBody>
