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
