import { FileSet } from '../generation/file-set.ts'
import { clusterWideOf, indexedUnder } from '../incremental/cluster-wide.ts'
import type { Backend } from '../model/derive-backend.ts'
import type { ClusterModel } from '../model/derive-cluster.ts'
import type { AccessGroup } from '../model/access-group.ts'
import type { HostConfig } from '../model/derive-host.ts'
import { ClusterState, type IgnoredIngresses } from '../model/cluster-state.ts'
import { compareWarnings, type AnnotationWarning } from '../model/ingress-annotations.ts'
import { normalizeRejections, type Rejection } from '../model/rejection.ts'
import { certificatePaths } from '../render/render-tls.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { SEPARATOR } from '../snapshot/separator.ts'
import { runToEnd } from '../slices.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree, TreeContext } from '../tree/tree.ts'

/** What a generation serves, counted from its snapshot. */
export interface ClusterCounts {
  /** Ingresses the cluster sent (served or rejected). */
  ingresses: number
  hosts: number
  backends: number
}

/**
 * A committed snapshot, read: its rejections, counts, the Ingresses ignored by class and the
 * derived model. Read-only (it makes no edit and derives nothing again), so a write's engine
 * builds a snapshot once and every reader after it, the write's own report included, reads it
 * key by key. Pure: a cold tree throws MissingNodes.
 */
export class SnapshotReader {
  private readonly keyspace: Keyspace

  constructor(readonly snapshot: Tree) {
    this.keyspace = new Keyspace(snapshot)
  }

  /** Every rejection in the cluster (a scan of the rejection tables, which hold only what is rejected). */
  rejections(): Rejection[] {
    const defaultBackend = this.keyspace.table<{ rejections: Rejection[] }>(TABLE.defaultBackend).get(CLUSTER_WIDE)
    const all: Rejection[] = [...(clusterWideOf(this.snapshot)?.rejections ?? []), ...(defaultBackend?.rejections ?? [])]
    for (const [, rejection] of this.keyspace.table<Rejection>(TABLE.objectRejection).entries()) all.push(rejection)
    for (const [, rejections] of this.keyspace.table<Rejection[]>(TABLE.hostRejections).entries()) all.push(...rejections)
    return normalizeRejections(all)
  }

  /** Every annotation warning in the cluster (a scan of the table, which holds only the Ingresses warned). */
  warnings(): AnnotationWarning[] {
    const all: AnnotationWarning[] = []
    for (const [, warnings] of this.keyspace.table<AnnotationWarning[]>(TABLE.ingressWarnings).entries()) all.push(...warnings)
    return all.sort(compareWarnings)
  }

  /** The warnings of some objects (`Ingress/ns/name` keys), read key by key: a write's objects, whatever the cluster's size. */
  warningsOf(keys: Iterable<string>): AnnotationWarning[] {
    return runToEnd(this.warningSteps(keys))
  }

  /** `warningsOf` as steps, one per key (see runInSlices): a full resync reads the warnings of 20,000 Ingresses. */
  *warningSteps(keys: Iterable<string>): Generator<void, AnnotationWarning[]> {
    const table = this.keyspace.table<AnnotationWarning[]>(TABLE.ingressWarnings)
    const all: AnnotationWarning[] = []
    for (const key of keys) {
      yield
      all.push(...(table.get(key) ?? []))
    }
    return all.sort(compareWarnings)
  }

  /** Counts from the snapshot's own rows: a few nodes along each table's edges, whatever the cluster's size. */
  counts(): ClusterCounts {
    const count = (prefix: string) => this.snapshot.countRange(prefix, `${prefix}\uffff`)
    return {
      // An Ingress that failed validation is kept in its own table, under the same key.
      ingresses: count(treeKey(TABLE.object, 'Ingress/')) + count(treeKey(TABLE.invalid, 'Ingress/')),
      hosts: count(`${TABLE.host}${SEPARATOR}`),
      backends: count(`${TABLE.backend}${SEPARATOR}`),
    }
  }

  /**
   * The Ingresses not served because of their class, under the options the snapshot was derived
   * under, counted along the indexes' edges. Null for a snapshot written before the index they
   * are counted from, until its next write builds it.
   */
  ignored(): IgnoredIngresses | null {
    const options = indexedUnder(this.snapshot)
    return options ? new ClusterState(options, this.keyspace).ignoredByClass() : null
  }

  /** The derived model (a scan of the whole snapshot, and the certificates from `manifest`), for comparison with the full rebuild's. */
  model(manifest: Tree, context: TreeContext): ClusterModel {
    const files = new FileSet(manifest, context)
    const certificates = new Map<string, string>()
    const clientCas = new Map<string, string>()
    const bySecret = this.keyspace.index(TABLE.secretHosts)
    const hostTable = this.keyspace.table<HostConfig>(TABLE.host)
    for (const secret of bySecret.keys()) {
      // A certificate is written once per line: for its hosts without client certificates, and per CA the others ask of (render-tls.ts).
      const paths = certificatePaths(
        secret,
        bySecret.members(secret).map((host) => hostTable.get(host)),
      )
      const pem = paths.certificates.map((path) => files.text(path)).find((text) => text !== undefined)
      if (pem !== undefined) certificates.set(secret, pem)
      for (const [ca, path] of paths.cas) {
        const bundle = files.text(path)
        if (bundle !== undefined) clientCas.set(ca, bundle)
      }
    }
    const caFiles = new Map<string, string>()
    for (const path of this.keyspace.index(TABLE.caFileBackends).keys()) {
      const pem = files.text(path)
      if (pem !== undefined) caFiles.set(path, pem)
    }
    const { name, access } = this.keyspace.table<{ name?: string; access?: string }>(TABLE.defaultBackend).get(CLUSTER_WIDE) ?? {}
    const clusterWide = clusterWideOf(this.snapshot)
    const settings = clusterWide?.settings
    if (!settings) throw new Error('the snapshot has no settings entry: it was never committed')
    return {
      settings,
      hosts: new Map(this.keyspace.table<HostConfig>(TABLE.host).entries()),
      backends: new Map(this.keyspace.table<Backend>(TABLE.backend).entries()),
      ...(name ? { defaultBackend: name } : {}),
      ...(access ? { defaultAccess: access } : {}),
      certificates,
      rejections: this.rejections(),
      warnings: this.warnings(),
      accessGroups: new Map(this.keyspace.table<AccessGroup>(TABLE.accessGroup).entries()),
      caFiles,
      clientCas,
      headerRules: new Map(this.keyspace.table<string[]>(TABLE.headerRules).entries()),
      canaryRules: new Map(this.keyspace.table<string[]>(TABLE.canaryRules).entries()),
      tlsListeners: clusterWide?.tlsListeners ?? [],
    }
  }
}
