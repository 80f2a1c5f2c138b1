/** Exponential backoff with jitter: each delay is drawn between half and all of `base × 2^attempt`, capped at `max`. */
export interface Backoff {
  baseMs: number
  maxMs: number
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 250, maxMs: 30_000 }

export function backoffDelay(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempt, 30))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Waits `ms`, or less when `signal` aborts first (a stop should not wait out a backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
  })
}
