import { compareText } from '../compare-text.ts'

/**
 * How many agent records a cluster keeps, and for how long. Anyone holding a cluster's token can
 * report under any pod name, and every record is read by the fleet views and pushed to after each
 * commit, so the records are bounded: by count (the oldest reporter gives way to a new pod) and
 * by age (a pod that stopped reporting is gone).
 */
export const AGENTS_PER_CLUSTER = 256
/** A record with no report for this long is dropped: agents report every minute while they run. */
export const AGENT_RECORD_TTL_MS = 24 * 60 * 60_000

export interface ReportedAt {
  pod: string
  /** An ISO time, so that its text sorts as its time does. */
  reportedAt: string
}

/** Whether the record has been reported within the TTL (a record with no readable time has not). */
export const isCurrent = (report: ReportedAt, now: Date): boolean => now.getTime() - Date.parse(report.reportedAt) < AGENT_RECORD_TTL_MS

/** The pods whose records are to be deleted: every expired one, then the oldest reporters beyond the bound. */
export function agentsToExpire(reports: readonly ReportedAt[], now: Date): string[] {
  const expired = reports.filter((report) => !isCurrent(report, now))
  const oldestFirst = reports.filter((report) => isCurrent(report, now)).sort((a, b) => compareText(a.reportedAt, b.reportedAt) || compareText(a.pod, b.pod))
  const beyond = oldestFirst.slice(0, Math.max(0, oldestFirst.length - AGENTS_PER_CLUSTER))
  return [...expired, ...beyond].map((report) => report.pod)
}
