import type { CommitContext } from '../commit/commit-events.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import type { Rejection } from '../model/rejection.ts'
import { committedWarnings } from '../reading/committed-warnings.ts'
import { workingState } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { readHead } from '../reading/read-head.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import { committedRejections } from './committed-rejections.ts'

/**
 * The rejections and warnings of the cluster's latest committed state that name one of `named`
 * (`Ingress ns/name`): a resync's answer. HEAD is read, and its trees opened, once for both.
 */
export async function latestReports(ctx: CommitContext, named: ReadonlySet<string>): Promise<{ rejected: Rejection[]; warnings: AnnotationWarning[] }> {
  const keys = clusterKeys(ctx.cluster)
  const current = named.size > 0 ? await readHead(ctx.store, keys) : undefined
  if (!current) return { rejected: [], warnings: [] }
  const loader = new NodeLoader(ctx.store, keys, ctx.context)
  const { snapshot } = await openTrees(workingState(current.head), loader, ctx.context, keys)
  const rejected = await committedRejections(snapshot, loader)
  const warnings = await committedWarnings(snapshot, loader)
  const isNamed = ({ object }: { object: string }) => named.has(object)
  return { rejected: rejected.filter(isNamed), warnings: warnings.filter(isNamed) }
}
