import { z } from 'zod'

/** Every error of the HTTP API: `{"error": {"message", "path"?}}`, the path naming the field of bad input. */
export const errorBody = z.object({ error: z.object({ message: z.string(), path: z.string().optional() }) })

export type ErrorBody = z.infer<typeof errorBody>
