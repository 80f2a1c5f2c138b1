import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../bench/random.ts'
import { latency } from '../../bench/stats.ts'
import { syntheticCluster } from '../../bench/synthetic-cluster.ts'
import { DEFAULT_BACKOFF } from '../../functions/adapters/kubernetes/backoff.ts'
import { DeliveryError, FunctionClient } from '../../processes/forwarder/function-client.ts'
import { DEFAULT_PAGED_RESYNC, sendPagedResync } from '../../processes/forwarder/paged-resync.ts'
import { app } from '../support/contracts/cluster-apps.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { startWranglerDev, type WranglerDev } from '../support/wrangler-dev.ts'

/** Ingresses of the resync: a few thousand in the suite; HAPEDGE_WORKERD_RESYNC_INGRESSES=20000 for the figure. */
const INGRESSES = Number(process.env.HAPEDGE_WORKERD_RESYNC_INGRESSES ?? 1_000)

async function register(dev: WranglerDev, id: string): Promise<FunctionClient> {
  const response = await fetch(`${dev.url}/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dev.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id }),
  })
  if (response.status !== 201) throw new Error(`register ${id}: ${response.status} ${await response.text()}`)
  const { token } = (await response.json()) as { token: string }
  return new FunctionClient({ source: dev.url, cluster: id, token })
}

/**
 * A write sent again, as the forwarder does, while it fails in a way worth retrying: workerd now
 * and then closes a kept-alive connection a request was just sent on (as a long request ends).
 */
async function sentAgain<T>(write: () => Promise<T>, dropped: (error: DeliveryError) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      if (!(error instanceof DeliveryError && error.retryable) || attempt >= 10) throw error
      dropped(error)
    }
  }
}

/** Why calls were sent again (`METHOD url: status message`), each reason once with how often, the URL and the wait left out. */
function reasonsOf(failures: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const failure of failures) {
    const reason = failure
      .replace(/^\S+ \S+: /, '')
      .replace(/; sending again in \d+ ms$/, '')
      .slice(0, 160)
    counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  return [...counts].map(([reason, n]) => `${n} × ${reason}`).join('; ') || 'none'
}

/** The three slowest writes: when each began (seconds into the resync) and how long it took. */
const slowest = (ms: readonly number[], starts: readonly number[]) =>
  ms
    .map((took, i) => ({ took, at: starts[i]! }))
    .sort((a, b) => b.took - a.took)
    .slice(0, 3)
    .map(({ took, at }) => `${at.toFixed(0)} s (${(took / 1000).toFixed(1)} s)`)
    .join(', ')

describe('a paged resync in workerd (wrangler dev, local R2)', () => {
  let dev: WranglerDev
  let persist: string
  beforeAll(async () => {
    persist = await makeTempDir('hapedge-wrangler-')
    dev = await startWranglerDev(persist)
  }, 120_000)
  afterAll(async () => {
    if (process.env.HAPEDGE_WRANGLER_OUTPUT) console.log(dev?.output())
    await dev?.stop()
    await removeTempDir(persist)
  })

  it(`a resync of ${INGRESSES} Ingresses in pages finishes, while another cluster's one-event writes are answered meanwhile`, async () => {
    const big = await register(dev, 'big')
    const quiet = await register(dev, 'quiet')
    const retried: string[] = []
    const drop = (error: DeliveryError) => void retried.push(error.message)
    await sentAgain(() => quiet.postEvents(app(1).map((object) => ({ type: 'ADDED', object }))), drop)
    const objects = syntheticCluster(INGRESSES, seededRandom(19))
    // An object the list lacks: the finish deletes it.
    await sentAgain(() => big.postEvents(app(9).map((object) => ({ type: 'ADDED', object }))), drop)

    let resyncing = true
    const quietMs: number[] = []
    /** When each quiet write began, in seconds from the resync's start: where its slowest writes fell. */
    const quietStarts: number[] = []
    const resyncStarted = performance.now()
    const quietWrites = (async () => {
      for (let n = 0; resyncing; n++) {
        const started = performance.now()
        const answer = await sentAgain(() => quiet.postEvents([{ type: 'MODIFIED', object: app(1, ['/', `/p${n}`])[0]! }]), drop)
        expect(answer.committed).toBe(true)
        quietMs.push(performance.now() - started)
        quietStarts.push((started - resyncStarted) / 1000)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    const log: string[] = []
    const options = { ...DEFAULT_PAGED_RESYNC, pageBytes: 4 * 1024 * 1024, backoff: DEFAULT_BACKOFF, log: (line: string) => log.push(line) }
    const resyncRetries = () => reasonsOf(log.filter((line) => line.endsWith(' ms') && line.includes('; sending again in ')))
    const started = performance.now()
    const answer = await sendPagedResync(big, objects, options).finally(() => {
      resyncing = false
      // Said even when the resync fails: why its calls and the other cluster's writes were sent again.
      console.log(`the resync's calls sent again: ${resyncRetries()}; the quiet cluster's writes sent again: ${reasonsOf(retried)}`)
    })
    const seconds = (performance.now() - started) / 1000
    await quietWrites
    expect(answer).toMatchObject({ committed: true })

    // The same list again stages nothing and commits nothing: the cluster holds exactly the list.
    const again = performance.now()
    const noop = await sendPagedResync(big, objects, options)
    const noopSeconds = (performance.now() - again) / 1000
    expect(noop).toMatchObject({ committed: false, generation: answer.generation })

    const figures = latency(quietMs)
    console.log(
      `workerd paged resync: ${INGRESSES} Ingresses (${objects.length} objects) in ${seconds.toFixed(1)} s (${log.find((line) => line.startsWith('resync of'))}; its calls sent again: ${resyncRetries()}); ` +
        `no-op resync ${noopSeconds.toFixed(1)} s; the quiet cluster's ${quietMs.length} one-event writes meanwhile: ` +
        `p50 ${figures.p50} ms, p95 ${figures.p95} ms, max ${Math.max(...quietMs).toFixed(0)} ms (sent again: ${reasonsOf(retried)}); ` +
        `the slowest began at ${slowest(quietMs, quietStarts)}`,
    )
    expect(quietMs.length).toBeGreaterThan(0)
  }, 1_800_000)
})
