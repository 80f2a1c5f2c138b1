/**
 * What one request of a paged resync may do, so that each stays within a function's limits
 * (a Worker's 128 MB and subrequests, a Lambda's memory) whatever the cluster's size:
 * a page holds at most `pageItems` items in at most `pageBytes`; a finish request applies at
 * most `finishItems` staged items (at least one commit's) in commits of the deployment's
 * `commitItems` each (a commit's items taken from as many pages as it has room for), and scans at most `scanEntries` stored entries for stale ones, deleting
 * at most `finishDeletions`, through a node cache of `scanCacheChars`, holding the listed keys
 * of one range of about `rangeKeys` of them.
 */
export interface ResyncBudget {
  pageItems: number
  pageBytes: number
  /** How long a session lives after it begins: an abandoned one changes nothing and is collected after this. */
  ttlMs: number
  finishItems: number
  /**
   * How long a finish request goes on starting commits and scans, from its start (at least one
   * always runs): a client or proxy gives up on a request that has answered nothing for minutes
   * (Node's fetch after 5), and a finish it sends again while this one still runs waits behind it.
   * Read between commits, so in a Worker, whose clock stands still while it computes, it counts
   * the time spent waiting on storage.
   */
  finishMs: number
  /**
   * Storage operations after which a finish request begins no more commits or scans (at least one
   * always runs): a Worker may make 1,000 subrequests a request on the paid plan. Counted over the
   * whole process since the request began, so others' operations only stop it sooner.
   */
  finishOperations: number
  /** Staged items per commit: a commit's nodes must fit the cluster's node cache (a Worker's is 8 MB), and other clusters wait for its computation. */
  commitItems: number
  /** Commits of a halved size (see CommitTooLarge) before it doubles again, up to `commitItems`. */
  growAfter: number
  finishDeletions: number
  scanEntries: number
  /** Listed keys per range of the stale scan: what a finish request holds of the pages' keys. */
  rangeKeys: number
  scanCacheChars: number
  /**
   * The most items of a list this deployment takes whole, in one `PUT …/objects` (up to its body
   * limit), where holding the whole list costs less than paging it: a forwarder that says how
   * large its list is when it begins a session is told to send it so (`POST …/resync`).
   */
  wholeListItems: number
}

export const DEFAULT_RESYNC_BUDGET: ResyncBudget = {
  pageItems: 1_000,
  pageBytes: 8 * 1024 * 1024,
  ttlMs: 60 * 60_000,
  finishItems: 2_000,
  finishMs: 20_000,
  // Half of a Worker's 1,000, for the commit or scan under way when it is reached.
  finishOperations: 500,
  commitItems: 250,
  growAfter: 8,
  finishDeletions: 2_000,
  scanEntries: 6_000,
  rangeKeys: 2_000,
  scanCacheChars: 4 * 1024 * 1024,
  // What the forwarder sent in one request before it asked: a Worker's 128 MB holds a page, not more.
  wholeListItems: 1_000,
}
