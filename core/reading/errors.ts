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
