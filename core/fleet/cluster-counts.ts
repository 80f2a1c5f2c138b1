import { SEPARATOR } from '../snapshot/separator.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** What a generation serves, counted from its snapshot. */
export interface ClusterCounts {
  /** Ingresses the cluster sent (served or rejected). */
  ingresses: number
  hosts: number
  backends: number
}

/** Counts from the snapshot's own rows: a few nodes along each table's edges, whatever the cluster's size. */
export function clusterCounts(snapshot: Tree): ClusterCounts {
  const count = (prefix: string) => snapshot.countRange(prefix, `${prefix}\uffff`)
  return {
    // An Ingress that failed validation is kept in its own table, under the same key.
    ingresses: count(treeKey(TABLE.object, 'Ingress/')) + count(treeKey(TABLE.invalid, 'Ingress/')),
    hosts: count(`${TABLE.host}${SEPARATOR}`),
    backends: count(`${TABLE.backend}${SEPARATOR}`),
  }
}
