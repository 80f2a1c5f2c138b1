import { sha256Text } from '../hash.ts'
import { NodeCache } from '../tree/node-cache.ts'
import { BRANCH_TARGET, jsonLines, type TreeShape } from '../tree/tree-shape.ts'
import { Tree, type TreeContext, type TreeEdits } from '../tree/tree.ts'
import { runToEnd } from '../slices.ts'
import { SEPARATOR } from './separator.ts'
import { TABLE, type TableName } from './tables.ts'
import { SetIndex } from './set-index.ts'
import { WriteSteps } from './write-steps.ts'
import { Table } from './table.ts'

/** Tables whose values are whole objects (an Ingress under each of its hosts too), derived configurations or a route's status with its messages (~0.5 KiB each); index entries are ~60 bytes. */
const LARGE_VALUES = new Set<string>([TABLE.object, TABLE.invalid, TABLE.hostIngresses, TABLE.host, TABLE.backend, TABLE.gatewayStatus])

/**
 * A value this long ends its leaf (TreeShape.largeValue): a host many Ingresses share derives to
 * ~6 K characters at 20,000 Ingresses (30 Ingresses; 150 at 100,000), against ~600 for a host or
 * object, so a leaf of the 20 shared hosts' neighbours held ~94 KB, rewritten at each change of a
 * host beside them. At 20,000 Ingresses 15 values are this long.
 */
const LARGE_VALUE = 4096

/**
 * The model snapshot: JSON values in leaves of a few KiB, stored under `clusters/<id>/nodes/`.
 * An event rewrites one node per level, and an internal node's rows (a key and a sha256 each)
 * barely compress: 16 children a node (cut geometrically) wrote a third of the bytes 32 did at
 * 20,000 Ingresses, for one more level (a cold read's extra round); 8 saved a tenth more for three
 * more. Internal nodes are cut narrowly about 24 children (BRANCH_TARGET), so the node an edit
 * rewrites holds ~27 rows where a geometric 16 gave ~32 and a tail beyond 100, for fewer levels
 * and files per event. Leaves of about 24 large values or 96 small ones, cut narrowly
 * (isNarrowBoundary; before, geometrically: 16 and 64, 8 and 64, 4 and 32): a full resync of
 * 20,000 Ingresses writes about 4,600 snapshot nodes, 4,400 of them leaves (with geometric leaves
 * of 16, 5,700 before the host table; 10,000 at 8, 20,000 at 4: a file each on disk, whose
 * creation costs kernel time, a gzip and a hash), and the leaf an edit lands in holds ~27 large
 * values, where a geometric 16 gave ~32, so a one-Ingress event writes no more (p50 about 23 KiB
 * stored): a leaf rewritten is gzipped and the interior nodes' hashes weigh most.
 */
export const SNAPSHOT_SHAPE: TreeShape = {
  space: 'nodes',
  codec: jsonLines,
  leafTarget: (key) => (LARGE_VALUES.has(key.slice(0, key.indexOf(SEPARATOR))) ? 24 : 96),
  leafSpread: 'narrow',
  largeValue: LARGE_VALUE,
  branchTarget: BRANCH_TARGET,
  branchSpread: 'narrow',
}

interface Pending {
  /** `table␁`: every key it edits starts with it. */
  readonly prefix: string
  edits(into: Map<string, string | undefined>, steps: WriteSteps): Generator<void>
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

  table<V>(name: TableName): Table<V> {
    return this.register(new Table<V>(this.base, `${name}${SEPARATOR}`))
  }

  index(name: TableName): SetIndex {
    return this.register(new SetIndex(this.base, `${name}${SEPARATOR}`))
  }

  /** Every pending write, as edits of the snapshot tree. */
  edits(): TreeEdits {
    return runToEnd(this.collecting())
  }

  /**
   * `edits()` as steps of a few hundred writes or 32 KiB of JSON (see runInSlices, WriteSteps): a
   * full resync's are over a hundred thousand, and collected at once they held the thread for
   * half a second. In key order (each
   * part's keys sorted, the parts by their prefix, which ends in SEPARATOR, below any character
   * of a name), so that the tree's edit sorts what is sorted already.
   */
  *collecting(): Generator<void, TreeEdits> {
    const edits = new Map<string, string | undefined>()
    const steps = new WriteSteps()
    for (const part of [...this.parts].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0))) yield* part.edits(edits, steps)
    return edits
  }

  private register<T extends Pending>(part: T): T {
    this.parts.push(part)
    return part
  }
}
