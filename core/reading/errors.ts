/** A stored object whose content does not hash to its name, or that a committed generation names but storage lacks. */
export class CorruptObject extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`${key}: ${reason}`)
    this.name = 'CorruptObject'
  }
}

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

/** A generation that is not retained (never made, or collected), or a cluster with no generation yet. */
export class UnknownGeneration extends Error {
  constructor(
    readonly cluster: string,
    readonly generation: number | undefined,
  ) {
    super(generation === undefined ? `cluster ${cluster} has no generation yet` : `cluster ${cluster} retains no generation ${generation}`)
    this.name = 'UnknownGeneration'
  }
}

/** A release asked of a cluster that no rollback pinned. */
export class NotPinned extends Error {
  constructor(readonly cluster: string) {
    super(`cluster ${cluster} is not pinned: there is nothing to release`)
    this.name = 'NotPinned'
  }
}
