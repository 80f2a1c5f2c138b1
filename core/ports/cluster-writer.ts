import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Rejection } from '../model/rejection.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../kube/gateway-status.ts'
import type { HAProxyCfgStatus, ResourceTarget } from '../kube/haproxycfg.ts'

/** A cluster's API server credentials, as opened from its record for a writer. */
export interface KubernetesCredentials {
  server: string
  token: string
  caData?: string
}

/** Makes the writer for one cluster's API server (the Kubernetes adapter, loaded only when a cluster needs it). */
export type ClusterWriterFactory = (credentials: KubernetesCredentials, cluster: string) => Promise<ClusterWriter>

/**
 * Where a commit is told to the cluster, after HEAD moved: the `HAProxyCfg` status and the
 * Events on rejected objects. HEAD is the truth; this is its mirror, so nothing here may undo
 * or fail a commit. Both methods answer what happened instead of throwing, for the caller to
 * count in `/metrics`, and a status that was not written is written whole on the next call.
 * `functions/adapters/kubernetes/` implements it over the cluster's API server.
 */
export interface ClusterWriter {
  /**
   * Writes the status (creating the resource when missing), unless the resource already names a
   * later generation: a stale writer never moves it backwards. Cheap when nothing changed (one
   * read), so it can be called after every write, committed or not.
   */
  writeStatus(target: ResourceTarget, status: HAProxyCfgStatus): Promise<StatusWriteResult>
  /**
   * One Warning Event (reason `Rejected`) per rejected object; the same rejection again raises
   * the existing Event's count. Pass the rejections of the objects a write named (not the whole
   * cluster's on every write, which would count old rejections again); at most a bounded
   * number per call are recorded, the rest counted as skipped. `warnings` (the same write's)
   * give one Warning Event (reason `AnnotationsNotHonoured`) per warned Ingress, after the rejections.
   */
  recordRejections(rejected: readonly Rejection[], warnings?: readonly AnnotationWarning[]): Promise<EventsResult>
  /**
   * The Gateway API's status (`.../status` of each GatewayClass, Gateway and route listed),
   * written only where it changed: a route keeps other controllers' `parents` entries. An
   * object that no longer exists is skipped. Writers of clusters without the Gateway API may
   * lack it. A GatewayStatusChange (what changed since a status this writer wrote) leaves the
   * objects it does not list as they were written.
   */
  writeGatewayStatus?(status: GatewayApiStatus | GatewayStatusChange): Promise<GatewayStatusResult>
}

export interface GatewayStatusResult {
  /** Objects whose status was written. */
  written: number
  /** Objects that already showed it (read, or known from this writer's last write). */
  unchanged: number
  /** Objects listed that the API server does not have (deleted since the commit). */
  missing: number
  /** One line per object whose status could not be written. */
  errors: string[]
}

export type StatusWriteResult =
  /** The resource names this status now. */
  | { outcome: 'written'; generation: number; attempts: number; created: boolean }
  /** The resource already showed exactly this status. */
  | { outcome: 'unchanged'; generation: number; attempts: number }
  /** The resource names a later generation (`current`), which was left in place. */
  | { outcome: 'stale'; generation: number; current: number; attempts: number }
  /** Not written (API server unreachable, refused, or still conflicting after every attempt). */
  | { outcome: 'failed'; generation: number; attempts: number; error: string; code?: number }

export interface EventsResult {
  /** New Events. */
  created: number
  /** Existing Events whose count was raised. */
  repeated: number
  /** Rejections left out: beyond the per-call bound, or of an object that cannot carry an Event. */
  skipped: number
  /** One line per Event that could not be written. */
  errors: string[]
}
