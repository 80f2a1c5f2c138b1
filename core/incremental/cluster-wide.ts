import type { Rejection } from '../model/rejection.ts'
import { canonicalOptions, DEFAULT_OPTIONS, type ClusterOptions, type Settings } from '../model/settings.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { CLUSTER_WIDE, SNAPSHOT_LAYOUT, TABLE } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** The snapshot's cluster-wide settings entry: the ConfigMap's settings and what was wrong in it, the options everything was derived under, and which indexes it holds. */
export interface ClusterWide {
  settings: Settings
  rejections: Rejection[]
  /** Absent in snapshots made before options were recorded: taken as changed. */
  options?: ClusterOptions
  /** SNAPSHOT_LAYOUT when it was written; absent before layouts were recorded (layout 1). */
  layout?: number
  /** The Secret served as the default certificate (the settings', else a Gateway listener's: gateway-tls.ts); absent before layout 40, when only the settings named one. */
  defaultCertificate?: string
  /** The served HTTPS listeners' hostnames, as `maps/tls-listeners.map` holds them (absent before layout 40: none). */
  tlsListeners?: string[]
}

/** The cluster-wide entry of a snapshot (undefined before its first change). */
export const clusterWideOf = (snapshot: Tree): ClusterWide | undefined => new Keyspace(snapshot).table<ClusterWide>(TABLE.settings).get(CLUSTER_WIDE)

/** Whether a snapshot lacks indexes this code keeps: they are built at its next write. */
export const olderLayout = (stored: ClusterWide) => stored.layout !== SNAPSHOT_LAYOUT

/** Whether a snapshot was derived under other options than these (or does not say: it predates their recording). */
export function derivedUnderOther(stored: ClusterWide, options: ClusterOptions): boolean {
  return JSON.stringify(stored.options) !== JSON.stringify(canonicalOptions(options))
}

/**
 * Whether a change under `options` will read the whole cluster (its snapshot was made under
 * other ones, or lacks an index, which is built from every Ingress): the committer then loads
 * the snapshot whole, level by level, first.
 */
export function rederivesAll(snapshot: Tree, options: Partial<ClusterOptions>): boolean {
  const stored = clusterWideOf(snapshot)
  return stored !== undefined && (derivedUnderOther(stored, { ...DEFAULT_OPTIONS, ...options }) || olderLayout(stored))
}

/**
 * The options a committed snapshot was derived under, when it holds every index this code keeps;
 * undefined for one written before (until its next write builds them).
 */
export function indexedUnder(snapshot: Tree): ClusterOptions | undefined {
  const stored = clusterWideOf(snapshot)
  return stored === undefined || olderLayout(stored) ? undefined : stored.options
}
