import type { MiddlewareHandler } from 'hono'
import type { AppVariables } from './auth.ts'

/**
 * Serves the rest of a request as background work (RequestTurn.background): an admin's view
 * that reads every cluster, or two generations, for seconds on a large fleet. Held in the
 * foreground, it stalled a resync's every slice for BACKGROUND_WAIT_MS. It only reads committed,
 * content-addressed state, so what runs between its reads changes nothing it answers; the
 * watch events and agents' reads that the foreground is for hold it as before.
 */
export const backgroundTurn: MiddlewareHandler<{ Variables: AppVariables }> = async (c, next) => {
  c.get('turn').background()
  await next()
}
