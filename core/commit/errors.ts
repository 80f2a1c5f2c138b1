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
