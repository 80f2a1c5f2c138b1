import { clusterKeys } from '../keys/cluster-keys.ts'
import { readGenerationRecord, retainedGenerations } from '../reading/generation-records.ts'
import { ensureHeadRecord } from '../commit/head-record.ts'
import type { GenerationRecord } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { readHead } from '../reading/read-head.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'

/** One retained generation as people read it: when, what changed, how HAProxy takes it, and how it was made. */
export interface GenerationSummary {
  generation: number
  manifest: string
  committedAt: string
  files: string[]
  reload: boolean
  reasons: string[]
  /** Map entries, server slots and certificates changed at runtime. */
  runtime: { maps: number; servers: number; certificates: number }
  /** Null for a generation made by a write (its record has no origin). */
  origin: NonNullable<GenerationRecord['origin']> | null
}

export interface HistoryPage {
  generations: GenerationSummary[]
  /** Pass as `before` for the next (older) page; null on the last one. */
  next: number | null
}

/**
 * The cluster's retained generations, newest first, `limit` at a time (records are read in
 * parallel); HEAD's own among them though a crash kept its commit from writing its record.
 */
export async function generationHistory(
  store: ObjectStore,
  cluster: string,
  context: TreeContext,
  page: { limit: number; before?: number | undefined },
): Promise<HistoryPage> {
  const keys = clusterKeys(cluster)
  const current = await readHead(store, keys)
  if (current) await ensureHeadRecord(store, keys, current.head, new NodeLoader(store, keys, context), context)
  const numbers = (await retainedGenerations(store, keys)).filter((n) => page.before === undefined || n < page.before)
  const chosen = numbers.slice(0, page.limit)
  const records = await Promise.all(chosen.map((n) => readGenerationRecord(store, keys, n)))
  const generations = records.filter((record): record is GenerationRecord => record !== undefined).map(summarize)
  return { generations, next: numbers.length > chosen.length ? chosen[chosen.length - 1]! : null }
}

export function summarize(record: GenerationRecord): GenerationSummary {
  const { plan } = record
  return {
    generation: record.generation,
    manifest: record.manifest,
    committedAt: record.committedAt,
    files: record.files,
    reload: plan.reload,
    reasons: plan.reasons,
    runtime: { maps: plan.maps.length, servers: plan.servers.length, certificates: plan.certificates.length },
    origin: record.origin ?? null,
  }
}
