/** Every attempt lost the race for HEAD: the caller should try again later (HTTP 503 with Retry-After). */
export class CommitContention extends Error {
  constructor(
    readonly cluster: string,
    readonly attempts: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`cluster ${cluster}: HEAD moved under ${attempts} attempts in a row; retry after ${retryAfterSeconds} s`)
    this.name = 'CommitContention'
  }
}

/** A release asked of a cluster that no rollback pinned. */
export class NotPinned extends Error {
  constructor(readonly cluster: string) {
    super(`cluster ${cluster} is not pinned: there is nothing to release`)
    this.name = 'NotPinned'
  }
}

/**
 * A commit read more nodes than its cluster's node cache may hold for it, or ran again for the
 * nodes it missed more than MAX_LOADS times, and was asked to stop there rather than go on
 * running again for each node it misses: its caller commits fewer events at a time.
 */
export class CommitTooLarge extends Error {
  constructor(
    readonly cluster: string,
    readonly events: number,
  ) {
    super(`cluster ${cluster}: a commit of ${events} events reads more nodes than its node cache may hold for it, or runs again too often`)
    this.name = 'CommitTooLarge'
  }
}
