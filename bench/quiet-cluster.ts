import { Worker } from 'node:worker_threads'
import type { ClusterClient } from './serve-client.ts'

/** The quiet cluster beside a resync: its size, and the pause between two of its one-Ingress events (a light, steady client, not a flood). */
export const QUIET_INGRESSES = 200
export const QUIET_GAP_MS = 20

/** What the quiet cluster's thread is told: send `events` one after another, or send them steadily from `start` until `stop`. */
export type QuietCommand = { kind: 'alone'; events: number } | { kind: 'start' } | { kind: 'stop' }

/** What a steady run answers: each answered event's milliseconds, from sending it to its answer, and the reason of each that failed. */
export interface QuietRun {
  times: number[]
  errors: string[]
  /** Sends of an answered event after its first (503, or a connection closed as it went out): their wait is in its time. */
  retries: number
}

/**
 * The quiet cluster's client, on a thread of its own: the thread that sends a resync stringifies
 * its pages meanwhile (tens of milliseconds each), and on the same thread that time would be
 * counted in the quiet cluster's answers, which measure the server. Each call answers the
 * milliseconds of each event, from sending it to its answer.
 */
export class QuietClient {
  private readonly worker: Worker

  constructor(url: string, cluster: ClusterClient) {
    // A worker does not inherit the main thread's `--import tsx`: it registers tsx, then loads the TypeScript module.
    const script = new URL('./quiet-worker.ts', import.meta.url).href
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script)}) })`
    this.worker = new Worker(boot, { eval: true, workerData: { url, cluster } })
  }

  /** `events` events one after another, with nothing else running. */
  alone(events: number): Promise<number[]> {
    return this.ask<number[]>({ kind: 'alone', events })
  }

  /** Starts sending steadily; the function it answers stops it and answers the events' times, and why those that failed did. */
  start(): () => Promise<QuietRun> {
    const run = this.ask<QuietRun>({ kind: 'start' })
    return () => {
      this.worker.postMessage({ kind: 'stop' } satisfies QuietCommand)
      return run
    }
  }

  close(): Promise<number> {
    return this.worker.terminate()
  }

  private ask<T>(command: QuietCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      this.worker.once('message', resolve)
      this.worker.once('error', reject)
      this.worker.postMessage(command)
    })
  }
}
