import { MissingNodes } from './node.ts'

/**
 * The nodes a run over partly loaded trees missed, gathered from its units (an event, a host, a
 * backend) so that one failing unit does not end the run: the next units go on and name what they
 * miss too, and the run ends naming them all, one round of loads for the lot. A run of a commit
 * that stopped at its first miss ran again for each node (a round, and a rerun of all its
 * events, per backend a deleted Ingress had). A run with misses is thrown away, so what the
 * units after a failed one compute from its half-done work only decides what else is loaded.
 */
export class MissedNodes {
  /** Made at the first miss: most runs (every host of a full rebuild, every lookup of a loaded tree) miss nothing. */
  private nodes: Map<string, { space: string; sha256: string }> | undefined

  /** Runs a unit and gives its result; the nodes it misses are noted (its result is then undefined) and the run goes on. */
  attempt<T>(unit: () => T): T | undefined {
    try {
      return unit()
    } catch (error) {
      if (!(error instanceof MissingNodes)) throw this.joined(error)
      this.noted(error.nodes)
      return undefined
    }
  }

  /** Ends the run if a unit missed nodes, naming them all. */
  check(): void {
    if (this.nodes) throw new MissingNodes([...this.nodes.values()])
  }

  /**
   * What to throw for an error that ends the run: MissingNodes naming the noted nodes too, or,
   * after a unit missed, MissingNodes alone (another error may come of that unit's half-done
   * work; a run with every node loaded meets it again if it is real).
   */
  joined(error: unknown): unknown {
    if (!this.nodes) return error
    if (error instanceof MissingNodes) this.noted(error.nodes)
    return new MissingNodes([...this.nodes.values()])
  }

  private noted(nodes: readonly { space: string; sha256: string }[]): void {
    if (nodes.length === 0) return
    const noted = (this.nodes ??= new Map())
    for (const node of nodes) noted.set(node.sha256, node)
  }
}
