import type { CommitContext } from '../commit/commit-events.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { runLoadingInSlices } from '../reading/run-loading.ts'
import type { Pause } from '../slices.ts'
import { SnapshotReader } from '../reading/snapshot-reader.ts'
import type { Tree } from '../tree/tree.ts'

/** Warnings an answer lists: the rest are counted (`warningCount`), so an answer stays small at any cluster size. */
export const ANSWER_WARNINGS = 100

export interface AnsweredWarnings {
  /** The first ANSWER_WARNINGS, in order of object, annotation and reason. */
  warnings: AnnotationWarning[]
  /** All of them. */
  warningCount: number
}

export function capWarnings(all: readonly AnnotationWarning[]): AnsweredWarnings {
  return { warnings: all.slice(0, ANSWER_WARNINGS), warningCount: all.length }
}

/**
 * The warnings of the Ingresses `ingresses` (the keys the events put), read key by key from the
 * snapshot the write's engine built (it just wrote those keys, so their nodes are in the cache),
 * in slices: all of them, which each request of a merged commit filters to its own before capping.
 */
export async function putIngressWarnings(ctx: CommitContext, snapshot: Tree, ingresses: ReadonlySet<string>, pause?: Pause): Promise<AnnotationWarning[]> {
  if (ingresses.size === 0) return []
  const loader = new NodeLoader(ctx.store, clusterKeys(ctx.cluster), ctx.context)
  return runLoadingInSlices(() => new SnapshotReader(snapshot).warningSteps(ingresses), loader, pause)
}
