import { parentPort, workerData } from 'node:worker_threads'
import { ChangeSource } from './changes.ts'
import { QUIET_GAP_MS, QUIET_INGRESSES, type QuietCommand } from './quiet-cluster.ts'
import { seededRandom } from './random.ts'
import { sendWrite, type ClusterClient } from './serve-client.ts'
import { syntheticCluster } from './synthetic-cluster.ts'

// The quiet cluster's events (see QuietClient), from the same objects the main thread loaded into it.
const { url, cluster } = workerData as { url: string; cluster: ClusterClient }
const source = new ChangeSource(syntheticCluster(QUIET_INGRESSES, seededRandom(7)), QUIET_INGRESSES, seededRandom(8))
let running = false

async function timedEvent(): Promise<number> {
  const started = performance.now()
  await sendWrite(url, cluster, { events: source.next('ingress-path') })
  return performance.now() - started
}

parentPort!.on('message', async (command: QuietCommand) => {
  const times: number[] = []
  if (command.kind === 'stop') running = false
  else if (command.kind === 'alone') {
    for (let n = 0; n < command.events; n++) times.push(await timedEvent())
    parentPort!.postMessage(times)
  } else {
    running = true
    while (running) {
      times.push(await timedEvent())
      await new Promise((resolve) => setTimeout(resolve, QUIET_GAP_MS))
    }
    parentPort!.postMessage(times)
  }
})
