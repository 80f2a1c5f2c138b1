import { sha256Text } from '../hash.ts'
import { NodeCache } from '../tree/node-cache.ts'
import { jsonLines, type TreeShape } from '../tree/tree-shape.ts'
import { Tree, type TreeContext, type TreeEdits } from '../tree/tree.ts'
import { SEPARATOR } from './separator.ts'
import { SetIndex } from './set-index.ts'
import { Table } from './table.ts'

/** The model snapshot: JSON values in ~2 KiB leaves, stored under `clusters/<id>/nodes/`. */
export const SNAPSHOT_SHAPE: TreeShape = { space: 'nodes', codec: jsonLines, leafTarget: 16, branchTarget: 64 }

interface Pending {
  edits(into: Map<string, string | undefined>): void
}

/**
 * Named tables and indexes laid out in one snapshot tree (`table␁key`, `index␁key␁member`).
 * Reads go through to the tree as it was; writes wait in each table until `edits()` collects
 * them, so a run that must start again (MissingNodes) leaves nothing behind.
 */
export class Keyspace {
  private readonly parts: Pending[] = []

  constructor(readonly base: Tree) {}

  /** A keyspace over an empty tree, kept in memory (the full rebuild's). */
  static inMemory(context: TreeContext = { nodes: new NodeCache(), hash: sha256Text }): Keyspace {
    return new Keyspace(Tree.empty(SNAPSHOT_SHAPE, context).tree)
  }

  table<V>(name: string): Table<V> {
    return this.register(new Table<V>(this.base, `${name}${SEPARATOR}`))
  }

  index(name: string): SetIndex {
    return this.register(new SetIndex(this.base, `${name}${SEPARATOR}`))
  }

  /** Every pending write, as edits of the snapshot tree. */
  edits(): TreeEdits {
    const edits = new Map<string, string | undefined>()
    for (const part of this.parts) part.edits(edits)
    return edits
  }

  private register<T extends Pending>(part: T): T {
    this.parts.push(part)
    return part
  }
}
