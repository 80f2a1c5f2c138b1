import { clip } from '../clip.ts'
import type { PinSummary } from '../reading/head.ts'
import type { AgentReport } from '../registry/agent-report.ts'
import type { IgnoredIngresses } from '../model/cluster-state.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Rejection } from '../model/rejection.ts'
import { statusConditions } from './status-conditions.ts'
import { STATUS_LIMITS, type HAProxyCfgStatus, type StatusFile, type StatusPod } from '../kube/haproxycfg.ts'

/** What a commit knows, and what agents reported, from which the status is built. */
export interface CommitFacts {
  generation: number
  manifest: string
  committedAt: string
  files: readonly StatusFile[]
  /** From the generation's plan. */
  reload: boolean
  reloadReasons: readonly string[]
  /** Every object of the cluster that is not served (or those of the write, if that is all the caller has). */
  rejected: readonly Rejection[]
  /** Every annotation warning of the cluster (none when the caller does not have them). */
  warnings?: readonly AnnotationWarning[]
  /** Ingresses not served because of their class; null when HEAD's snapshot predates their count. */
  ignored?: IgnoredIngresses | null | undefined
  pods: readonly (AgentReport & { pod: string })[]
  /** Set while a rollback pins the cluster (HEAD's pin). */
  pinned?: PinSummary | undefined
}

/**
 * The `HAProxyCfg` status for a committed generation. Pure; its conditions' transition times are
 * the commit's time, and the writer keeps the previous ones where a condition did not change
 * (`carryConditions`).
 */
export function haproxyCfgStatus(facts: CommitFacts): HAProxyCfgStatus {
  const files = [...facts.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const pods = [...facts.pods].sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0)).map(statusPod)
  return {
    generation: facts.generation,
    manifest: facts.manifest,
    shortManifest: facts.manifest.slice(0, 12),
    committedAt: facts.committedAt,
    fileCount: files.length,
    totalBytes: files.reduce((sum, file) => sum + file.size, 0),
    files: files.slice(0, STATUS_LIMITS.files),
    reload: facts.reload,
    reloadReasons: facts.reloadReasons.slice(0, STATUS_LIMITS.reloadReasons).map((reason) => clip(reason, STATUS_LIMITS.text)),
    rejectedCount: facts.rejected.length,
    rejected: facts.rejected.slice(0, STATUS_LIMITS.rejected).map(({ object, reason }) => ({ object, reason: clip(reason, STATUS_LIMITS.text) })),
    warningCount: facts.warnings?.length ?? 0,
    warnings: (facts.warnings ?? [])
      .slice(0, STATUS_LIMITS.warnings)
      .map(({ object, annotation, reason }) => ({ object, annotation, reason: clip(reason, STATUS_LIMITS.text) })),
    ...(facts.ignored ? { ignored: { ...facts.ignored } } : {}),
    conditions: statusConditions({
      generation: facts.generation,
      manifest: facts.manifest,
      at: facts.committedAt,
      rejected: facts.rejected.length,
      ignored: facts.ignored ?? undefined,
      pods,
      pinned: facts.pinned,
    }),
    pods: pods.slice(0, STATUS_LIMITS.pods),
  }
}

function statusPod(report: AgentReport & { pod: string }): StatusPod {
  const pod: StatusPod = { pod: report.pod }
  if (report.generation !== null) pod.generation = report.generation
  if (report.manifest !== null) pod.manifest = report.manifest
  if (report.applied !== null) pod.applied = report.applied
  if (report.appliedAt !== null) pod.appliedAt = report.appliedAt
  if (report.lastError !== null) pod.lastError = clip(report.lastError, STATUS_LIMITS.text)
  return pod
}
