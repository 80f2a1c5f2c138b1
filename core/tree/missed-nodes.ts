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
  private readonly nodes = new Map<string, { space: string; sha256: string }>()

  /** Runs a unit and gives its result; the nodes it misses are noted (its result is then undefined) and the run goes on. */
  attempt<T>(unit: () => T): T | undefined {
    try {
      return unit()
    } catch (error) {
      if (!(error instanceof MissingNodes)) throw this.joined(error)
      for (const node of error.nodes) this.nodes.set(node.sha256, node)
      return undefined
    }
  }

  /** Ends the run if a unit missed nodes, naming them all. */
  check(): void {
    if (this.nodes.size > 0) throw new MissingNodes([...this.nodes.values()])
  }

  /**
   * What to throw for an error that ends the run: MissingNodes naming the noted nodes too, or,
   * after a unit missed, MissingNodes alone (another error may come of that unit's half-done
   * work; a run with every node loaded meets it again if it is real).
   */
  joined(error: unknown): unknown {
    if (this.nodes.size === 0) return error
    if (error instanceof MissingNodes) for (const node of error.nodes) this.nodes.set(node.sha256, node)
    return new MissingNodes([...this.nodes.values()])
  }
}
