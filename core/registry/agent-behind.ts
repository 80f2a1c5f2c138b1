/** What an agent last said it runs (null or absent: not said yet). */
export interface AgentRuns {
  generation?: number | null | undefined
  manifest?: string | null | undefined
}

/** The generation HEAD names, and its content's manifest. */
export interface CommittedPointer {
  generation: number
  manifest: string
}

/**
 * Whether an agent runs what HEAD serves: the same manifest, whichever generation it took it
 * from (a generation that changed no file, such as a re-sent object or a rollback to the same
 * content, has the manifest of the one before); from an agent that does not say its manifest,
 * the same generation.
 */
export function runsHead(head: CommittedPointer, runs: AgentRuns): boolean {
  if (runs.manifest !== null && runs.manifest !== undefined) return runs.manifest === head.manifest
  return runs.generation === head.generation
}

/** How many generations an agent runs behind HEAD: 0 when it runs HEAD's content; null before HEAD exists or while the agent's generation is unknown. */
export function generationsBehind(head: CommittedPointer | null | undefined, runs: AgentRuns): number | null {
  if (!head) return null
  if (runsHead(head, runs)) return 0
  return runs.generation === null || runs.generation === undefined ? null : head.generation - runs.generation
}
