import { planFromFiles } from '../plan/plan-from-files.ts'
import type { Plan } from '../plan/plan.ts'
import type { TreeContext } from '../tree/tree.ts'
import { changedFiles, changedTexts } from '../reading/changed-files.ts'
import type { NodeLoader } from '../reading/node-loader.ts'

/** The files that differ from one generation's manifest to another's, and how HAProxy takes the change (from their texts). */
export async function planBetween(
  before: string | undefined,
  after: string,
  loader: NodeLoader,
  context: TreeContext,
): Promise<{ files: string[]; plan: Plan }> {
  const changes = await changedFiles(before, after, loader, context)
  const texts = await changedTexts(changes, loader, context)
  return { files: changes.map((change) => change.path), plan: planFromFiles(texts.before, texts.after) }
}
