import { app } from '../test/support/contracts/cluster-apps.ts'
import { startConditionalS3Double } from '../test/support/conditional-s3-double.ts'
import { startServe, type Served } from '../test/support/serve-process.ts'
import { registerCluster, sendWrite } from './serve-client.ts'
import { latency, round, type Latency } from './stats.ts'

export interface ReplicasOptions {
  /** One-Ingress writes sent in all, at once by `writers` clients. */
  writes: number
  writers: number
  /** Apps (Ingress, Service, endpoints) the cluster holds before the writes. */
  background: number
}

export interface ReplicasRow {
  replicas: number
  writes: number
  seconds: number
  /** Acknowledged writes a second. */
  writesPerSecond: number
  /** Generations made a second: writes a replica received together are committed together. */
  commitsPerSecond: number
  /** Puts the store refused for a failed condition, per generation: HEAD races lost and run again. */
  lostRacesPerCommit: number
  /** Writes answered 503 (a commit lost its race six times) and sent again by the client. */
  retried: number
  latencyMs: Latency
}

/** Replicas of `hapedge serve` measured: one, then several on the same bucket. */
export const REPLICA_COUNTS = [1, 2, 3]

const AWS = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_CONFIG_FILE: '/nonexistent/aws-config',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
  AWS_EC2_METADATA_DISABLED: 'true',
}

/** A write of app `n`'s Ingress with a path of its own, so every write changes the files. */
const pathWrite = (n: number, background: number) => {
  const [ingress] = app(n % background, ['/', `/w${n}`])
  return { events: [{ type: 'MODIFIED' as const, object: ingress as Record<string, unknown> }] }
}

/**
 * Commits a second on one cluster with 1, 2 and 3 `hapedge serve` replicas on one bucket of the
 * conditional S3 double (loopback, in this process: no network latency, and its CPU shared with
 * the replicas'): `writers` clients send one-Ingress writes round-robin across the replicas.
 * One replica commits what waits together (group commit); several race for HEAD, and a loser
 * reads the new HEAD and commits again.
 */
export async function measureReplicas(options: ReplicasOptions): Promise<ReplicasRow[]> {
  const rows: ReplicasRow[] = []
  for (const count of REPLICA_COUNTS) {
    const double = await startConditionalS3Double({ buckets: ['bench'] })
    const store = ['--store', 's3://bench/replicas', '--s3-endpoint', double.endpoint, '--s3-force-path-style']
    let replicas: Served[] = []
    try {
      replicas = await Promise.all(Array.from({ length: count }, () => startServe(store, AWS)))
      const cluster = await registerCluster(replicas[0]!.url, replicas[0]!.adminToken, 'replicas')
      const seeded = await sendWrite(replicas[0]!.url, cluster, { objects: Array.from({ length: options.background }, (_, n) => app(n)).flat() })
      const refusedBefore = double.requests.get('PUT refused') ?? 0
      const latencies: number[] = []
      let retried = 0
      let last = seeded.answer.generation ?? 0
      let next = 0
      const started = performance.now()
      await Promise.all(
        Array.from({ length: options.writers }, async () => {
          for (let n = next++; n < options.writes; n = next++) {
            const sent = performance.now()
            const { answer, retries } = await sendWrite(replicas[n % count]!.url, cluster, pathWrite(n, options.background))
            latencies.push(performance.now() - sent)
            retried += retries
            last = Math.max(last, answer.generation ?? 0)
          }
        }),
      )
      const seconds = (performance.now() - started) / 1000
      const commits = last - (seeded.answer.generation ?? 0)
      rows.push({
        replicas: count,
        writes: options.writes,
        seconds: round(seconds, 2),
        writesPerSecond: round(options.writes / seconds, 1),
        commitsPerSecond: round(commits / seconds, 1),
        lostRacesPerCommit: round(((double.requests.get('PUT refused') ?? 0) - refusedBefore) / Math.max(1, commits), 2),
        retried,
        latencyMs: latency(latencies),
      })
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()))
      await double.stop()
    }
  }
  return rows
}

export function printReplicasReport(rows: readonly ReplicasRow[], options: ReplicasOptions): void {
  console.log(
    `\n## Replicas of hapedge serve on one S3 bucket (the conditional S3 double on loopback; one cluster of ${options.background} apps, ` +
      `${options.writes} one-Ingress writes from ${options.writers} clients at once, round-robin)\n`,
  )
  console.log('| replicas | writes/s | commits/s | lost HEAD races per commit | writes sent again after 503 | write p50 ms | write p95 ms |')
  console.log('|---:|---:|---:|---:|---:|---:|---:|')
  for (const row of rows)
    console.log(
      `| ${row.replicas} | ${row.writesPerSecond} | ${row.commitsPerSecond} | ${row.lostRacesPerCommit} | ${row.retried} | ${row.latencyMs.p50} | ${row.latencyMs.p95} |`,
    )
}
