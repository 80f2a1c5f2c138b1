import type { Context } from 'hono'

/**
 * Runs work past the response: a Worker is kept alive for it (`waitUntil`); a Node server
 * lives on anyway. (A Lambda is frozen after its response, so there the work resumes with
 * the next invocation; agents' polling covers the gap.) Failures are the work's own to report.
 */
export function inBackground(c: Context, work: Promise<unknown>): void {
  const settled = work.catch(() => undefined)
  try {
    c.executionCtx.waitUntil(settled)
  } catch {
    // No ExecutionContext outside Workers: the promise runs detached.
  }
}
