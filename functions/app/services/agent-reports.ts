import type { AgentSummaryAnswer } from '../../../core/api/cluster-answers.ts'
import type { Assert, Same } from '../../../core/api/same-type.ts'
import { mapLimited } from '../../../core/map-limited.ts'
import type { ListedObject, ObjectStore } from '../../../core/ports/object-store.ts'
import { generationsBehind, type CommittedPointer } from '../../../core/registry/agent-behind.ts'
import { agentKey, type AgentReport } from '../../../core/registry/agent-report.ts'
import { agentsToExpire, isCurrent } from '../../../core/registry/agent-retention.ts'

/** An agent's last report as stored: what it said, its pod, when, and what it was warned of (absent in records stored before warnings were). */
export type StoredReport = AgentReport & { pod: string; reportedAt: string; warnings?: string[] }

/** Records read at once: enough to hide storage latency, few enough to be gentle on it. */
const READ_CONCURRENCY = 16

/** The report stored at `key`; undefined when it is gone. */
async function readReport(store: ObjectStore, key: string): Promise<StoredReport | undefined> {
  const stored = await store.get(key)
  return stored && (JSON.parse(new TextDecoder().decode(stored.body)) as StoredReport)
}

/** Every stored report of the cluster whose keys start with `clusterRoot`, expired ones included. */
async function storedReports(store: ObjectStore, clusterRoot: string): Promise<StoredReport[]> {
  const keys: string[] = []
  for await (const object of store.list(agentKey(clusterRoot, ''))) keys.push(object.key)
  const reports = await mapLimited(keys, READ_CONCURRENCY, (key) => readReport(store, key))
  return reports.filter((report) => report !== undefined)
}

/**
 * One cluster's stored reports, as of a listing made at each call: only the records listed with
 * another size or time than when this process last read them are read again. Whichever process
 * stored a report (replicas of `hapedge serve` share one store), the next call has it, where a
 * copy kept for a while would miss an agent that reported elsewhere meanwhile; a steady fleet
 * costs one LIST a call. A report rewritten within the store's time resolution (S3: a second)
 * at the same size is read at its next change: agents report every minute.
 */
export class ListedReports {
  private readonly read = new Map<string, { size: number; modified: number; report: StoredReport | undefined }>()

  constructor(
    private readonly store: ObjectStore,
    private readonly clusterRoot: string,
  ) {}

  async current(): Promise<StoredReport[]> {
    const listed: ListedObject[] = []
    for await (const object of this.store.list(agentKey(this.clusterRoot, ''))) listed.push(object)
    const changed = listed.filter(({ key, size, lastModified }) => {
      const known = this.read.get(key)
      return !known || known.size !== size || known.modified !== lastModified.getTime()
    })
    await mapLimited(changed, READ_CONCURRENCY, async ({ key, size, lastModified }) => {
      this.read.set(key, { size, modified: lastModified.getTime(), report: await readReport(this.store, key) })
    })
    const present = new Set(listed.map(({ key }) => key))
    for (const key of this.read.keys()) if (!present.has(key)) this.read.delete(key)
    return listed.flatMap(({ key }) => this.read.get(key)?.report ?? [])
  }
}

/** The last report of every agent of the cluster whose keys start with `clusterRoot` that reported within the TTL. */
export async function agentsOf(store: ObjectStore, clusterRoot: string, now: Date): Promise<StoredReport[]> {
  return (await storedReports(store, clusterRoot)).filter((report) => isCurrent(report, now))
}

/**
 * Stores an agent's report. A pod not heard of before may take the cluster over its bound, so
 * then the expired records and the oldest reporters beyond it are deleted; a pod that reported
 * before costs one write, as its heartbeat should.
 */
export async function recordReport(store: ObjectStore, clusterRoot: string, report: StoredReport, now: Date): Promise<void> {
  const key = agentKey(clusterRoot, report.pod)
  const known = await store.head(key)
  await store.put(key, JSON.stringify(report))
  if (known) return
  const expire = agentsToExpire(await storedReports(store, clusterRoot), now)
  if (expire.length > 0) await store.delete(expire.map((pod) => agentKey(clusterRoot, pod)))
}

/** An agent as the admin API shows it: what it runs, how many generations it is behind the cluster's (0 once it runs HEAD's manifest), when it last reported. */
export interface AgentSummary {
  pod: string
  generation: number | null
  behind: number | null
  applied: AgentReport['applied']
  reportedAt: string
  lastError: string | null
  /** What its report was answered with besides: a `notifyUrl` the cluster does not push to. */
  warnings: string[]
}

export type AgentSummaryIsAnswer = Assert<Same<AgentSummary, AgentSummaryAnswer>>

export async function agentSummaries(store: ObjectStore, clusterRoot: string, head: CommittedPointer | null, now: Date): Promise<AgentSummary[]> {
  return (await agentsOf(store, clusterRoot, now)).map(({ pod, generation, manifest, applied, reportedAt, lastError, warnings }) => ({
    pod,
    generation,
    behind: generationsBehind(head, { generation, manifest }),
    applied,
    reportedAt,
    lastError,
    warnings: warnings ?? [],
  }))
}
