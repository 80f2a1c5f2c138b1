/**
 * Why Node's fetch failed to get an answer, from what it wraps: its own message is only "fetch
 * failed", and the cause says what a person can act on (`connect ECONNREFUSED 10.0.0.1:443`,
 * `getaddrinfo ENOTFOUND hapedge.example`, a certificate not trusted, with its code).
 */
export function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  if (!(cause instanceof Error)) return error.message
  const code = (cause as { code?: unknown }).code
  if (cause.message === 'bad port') return 'a port fetch refuses to connect to (one browsers block); use another'
  return typeof code === 'string' && !cause.message.includes(code) ? `${cause.message} (${code})` : cause.message
}
