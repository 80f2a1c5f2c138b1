import { parentPort, workerData } from 'node:worker_threads'
import { ChangeSource } from './changes.ts'
import { QUIET_GAP_MS, QUIET_INGRESSES, type QuietCommand, type QuietRun } from './quiet-cluster.ts'
import { seededRandom } from './random.ts'
import { sendWrite, type ClusterClient } from './serve-client.ts'
import { syntheticCluster } from './synthetic-cluster.ts'

// The quiet cluster's events (see QuietClient), from the same objects the main thread loaded into it.
const { url, cluster } = workerData as { url: string; cluster: ClusterClient }
const source = new ChangeSource(syntheticCluster(QUIET_INGRESSES, seededRandom(7)), QUIET_INGRESSES, seededRandom(8))
let running = false
/** Events sent again since the last run began (503, or a connection closed as the event went out): their time is in the event's. */
let retries = 0

async function timedEvent(): Promise<number> {
  const started = performance.now()
  retries += (await sendWrite(url, cluster, { events: source.next('ingress-path') })).retries
  return performance.now() - started
}

parentPort!.on('message', async (command: QuietCommand) => {
  const times: number[] = []
  if (command.kind === 'stop') running = false
  else if (command.kind === 'alone') {
    for (let n = 0; n < command.events; n++) times.push(await timedEvent())
    parentPort!.postMessage(times)
  } else {
    // An event that fails (an error status, a connection that gives no answer) is counted with its reason, and the next one goes on.
    const errors: string[] = []
    retries = 0
    running = true
    while (running) {
      await timedEvent().then(
        (ms) => times.push(ms),
        (error: Error & { cause?: Error }) => errors.push((error.cause?.message ?? error.message).slice(0, 160)),
      )
      await new Promise((resolve) => setTimeout(resolve, QUIET_GAP_MS))
    }
    parentPort!.postMessage({ times, errors, retries } satisfies QuietRun)
  }
})
