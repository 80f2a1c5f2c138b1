import { churnCluster, churnPools, makeChurnCertificates } from '../test/support/churn-changes.ts'
import { startEdgeStack } from '../test/support/edge-stack.ts'
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.ts'
import { seededRandom } from './random.ts'
import { removeAtExit } from './removed-at-exit.ts'
import { latency, type Latency } from './stats.ts'

export interface ChurnResult {
  changes: number
  runtime: Latency
  reload: Latency
  /** Changes whose commit made no new generation (an endpoint set or path posted as it already was): nothing to apply. */
  unchanged: number
}

const WAIT_MS = 30_000

/**
 * The agent-churn test's mixed changes (same seed), with no client load: from each event posted to
 * the listening agent reporting its generation, driven by the function's push alone.
 */
export async function measureChurn(changes: number): Promise<ChurnResult> {
  const certDir = await makeTempDir('hapedge-bench-churn')
  const certs = await makeChurnCertificates(certDir)
  let cluster!: ReturnType<typeof churnCluster>
  // Its directory is removed at exit, not at stop: the convergence runs before it leave theirs the same way (see removeAtExit).
  const stack = await startEdgeStack(churnPools, ({ backends }) => (cluster = churnCluster(churnPools, backends, certs)).initial, {
    removeRoot: removeAtExit,
  })
  const { agent, close } = await stack.listeningAgent()
  const times = { runtime: [] as number[], reload: [] as number[] }
  let unchanged = 0
  try {
    let previous = agent.status.generation
    for (const { n, events } of cluster.changes(seededRandom(2026), changes)) {
      const posted = performance.now()
      const { generation } = await stack.send(events)
      if (generation === previous) {
        unchanged++
        continue
      }
      while (agent.status.generation !== generation) {
        if (performance.now() - posted > WAIT_MS)
          throw new Error(`change ${n}: the agent did not report generation ${generation} within ${WAIT_MS} ms: ${JSON.stringify(agent.status)}`)
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      const ms = performance.now() - posted
      const { applied, lastError } = agent.status
      if (lastError) throw new Error(`change ${n}: ${lastError}`)
      if (applied !== 'runtime' && applied !== 'reload') throw new Error(`change ${n}: applied ${applied}`)
      times[applied].push(ms)
      previous = generation
    }
  } finally {
    close()
    await stack.stop()
    await removeTempDir(certDir)
  }
  return { changes, runtime: latency(times.runtime), reload: latency(times.reload), unchanged }
}
