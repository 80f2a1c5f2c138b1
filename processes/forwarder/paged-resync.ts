import { backoffDelay, retryAfterMs, sleep, type Backoff } from '../../functions/adapters/kubernetes/backoff.ts'
import { DeliveryError, type FunctionClient, type WriteResult } from './function-client.ts'

export interface PagedResyncOptions {
  /** Items per page at most (the function's own `pageItems` may lower it). */
  pageItems: number
  /** Serialised items per page at most, in bytes. */
  pageBytes: number
  /** Pages sent at once. */
  inFlight: number
  backoff: Backoff
  /** Tries of one call that keeps failing in a way worth retrying, before this try fails (a caller that keeps its progress, as the Delivery does, resumes the session). */
  tries: number
  /** Sessions begun again after the function lost one (404, or 410 once expired), before the resync fails. */
  sessions: number
  signal?: AbortSignal
  log: (line: string) => void
  /**
   * Sends the list whole (`PUT …/objects`), when the function, told the list's size as the session
   * begins, answers that it takes it so: a server whose heap holds the list commits it in a fraction
   * of the paged resync's time and writes. Without it, the list always goes in pages.
   */
  whole?: () => Promise<WriteResult>
}

export const DEFAULT_PAGED_RESYNC = { pageItems: 1_000, inFlight: 3, tries: 8, sessions: 3 } as const

/**
 * Where a paged resync stands: its session and pages once begun, and the pages the function took.
 * A caller that keeps it across its own retries (the Delivery does) resumes the session where it
 * was, instead of beginning another and sending every page again, when the function was out of
 * reach for longer than `tries` of one call.
 */
export interface PagedResyncProgress {
  session?: { id: string; pages: object[][] }
  sent: Set<number>
}

export const pagedResyncProgress = (): PagedResyncProgress => ({ sent: new Set() })

/**
 * A full resync as a session: begun, its pages (cut from the list sorted by object key, so the
 * function's finish reads each page about once) sent a few at a time, each retried alone, then
 * finish called until it is done. A session the function lost (404) or let expire (410) begins
 * again; one `progress` already names goes on from the pages it says were sent.
 */
export async function sendPagedResync(
  client: FunctionClient,
  items: readonly object[],
  options: PagedResyncOptions,
  progress: PagedResyncProgress = pagedResyncProgress(),
): Promise<WriteResult> {
  // Sorted once, when a session is first begun (a resumed one has its pages): a session begun again cuts the same list.
  let sortedItems: ReturnType<typeof sortedByKey> | undefined
  for (let session = 1; ; session++) {
    if (progress.session) options.log(`resuming resync session ${progress.session.id}: ${progress.sent.size} of ${progress.session.pages.length} pages sent`)
    else {
      const sorted = (sortedItems ??= sortedByKey(items))
      const { whole } = options
      const size = whole && { items: items.length, bytes: sorted.reduce((sum, { bytes }) => sum + bytes, 0) }
      const begun = await retried(() => client.beginResync(size), options)
      if ('whole' in begun) {
        if (!whole) throw new Error('the function answered a resync session begun without the list\'s size with "send it whole"')
        options.log(`resync of ${items.length} objects in one request: the function takes up to ${begun.items} objects whole`)
        return whole()
      }
      progress.sent.clear()
      progress.session = { id: begun.session, pages: cut(sorted, Math.min(options.pageItems, begun.pageItems), options.pageBytes) }
    }
    const { id, pages } = progress.session
    try {
      await eachAtOnce(pages, options.inFlight, async (page, n) => {
        if (progress.sent.has(n)) return
        await retried(() => client.putResyncPage(id, n, page), options)
        progress.sent.add(n)
      })
      for (let calls = 1; ; calls++) {
        const answer = await retried(() => client.finishResync(id, pages.length), options)
        if (answer.done) {
          const { done: _, resync: did, ...result } = answer
          const kept = did?.kept === undefined ? '' : `, ${did.kept} unlisted kept as newer than the list`
          const counts = did ? `: ${did.applied} applied, ${did.superseded} superseded by newer writes, ${did.deleted} deleted${kept}` : ''
          options.log(`resync of ${items.length} objects in ${pages.length} pages, finished in ${calls} call${calls === 1 ? '' : 's'}${counts}`)
          return result
        }
      }
    } catch (error) {
      const lost = error instanceof DeliveryError && (error.status === 404 || error.status === 410)
      if (!lost || session >= options.sessions) throw error
      progress.session = undefined
      options.log(`${error.message}; beginning the resync session again`)
    }
  }
}

/** What an item adds to a list or a batch as sent: its JSON and a separator. The size a session begins with (and the function's whole-list bound) counts it so. */
export const sentBytes = (item: unknown) => JSON.stringify(item).length + 1

const sortedByKey = (items: readonly object[]) =>
  items.map((item) => ({ item, key: keyOf(item), bytes: sentBytes(item) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

/** The items cut into pages of at most `maxItems` items and `maxBytes` bytes (an item larger than that alone). */
function cut(sorted: readonly { item: object; bytes: number }[], maxItems: number, maxBytes: number): object[][] {
  const pages: object[][] = []
  let page: object[] = []
  let bytes = 0
  for (const { item, bytes: size } of sorted) {
    if (page.length > 0 && (page.length >= maxItems || bytes + size > maxBytes)) {
      pages.push(page)
      page = []
      bytes = 0
    }
    page.push(item)
    bytes += size
  }
  // A resync of nothing is one empty page: the function then deletes everything it holds.
  pages.push(page)
  return pages
}

/**
 * Runs `send` for each page, at most `limit` at once. After the first failure no page starts, and
 * the pages under way end before it is thrown: a resync resumed after it knows every page they sent,
 * and no send of an earlier try is left running beside it.
 */
async function eachAtOnce<T>(pages: readonly T[], limit: number, send: (page: T, n: number) => Promise<unknown>): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    for (let n = next++; n < pages.length && !failed; n = next++) {
      await send(pages[n]!, n).catch((error: unknown) => {
        failed = true
        throw error
      })
    }
  }
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, pages.length) }, worker))
  const failure = settled.find((outcome) => outcome.status === 'rejected')
  if (failure) throw failure.reason
}

/**
 * A call tried again with backoff (at least what Retry-After says) while it fails in a way worth
 * retrying: the network, 429, 5xx, and a 409 of a finish that another call moved on.
 */
async function retried<T>(call: () => Promise<T>, options: PagedResyncOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError(undefined, (error as Error).message)
      const worthRetrying = failure.retryable || (failure.status === 409 && failure.path === undefined)
      if (!worthRetrying || attempt + 1 >= options.tries || options.signal?.aborted) throw failure
      const wait = Math.max(retryAfterMs(failure.retryAfter ?? null) ?? 0, backoffDelay(options.backoff, attempt))
      options.log(`${failure.message}; sending again in ${wait} ms`)
      await sleep(wait, options.signal)
    }
  }
}

/** `Kind/ns/name`, the function's object key, from the object's own fields. */
function keyOf(item: object): string {
  const { kind, metadata } = item as { kind?: unknown; metadata?: { namespace?: unknown; name?: unknown } }
  return [kind, metadata?.namespace, metadata?.name].filter((part) => typeof part === 'string').join('/')
}
