import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { measureHttpRoutes, measureSize, type SizeResult } from './measure.ts'
import {
  printChurnReport,
  printCommitTurnsReport,
  printConvergenceReport,
  printFleetReport,
  printHttpReport,
  printHttpRouteReport,
  printReport,
  printResyncReport,
  printSealingReport,
  printStorageReport,
  printWorkerBundleReport,
  printWorkerdResyncReport,
} from './report.ts'
import { measureChurn } from './churn.ts'
import { measureCommitTurns } from './commit-turns.ts'
import { CONVERGENCE_BACKGROUNDS, measureConvergence, type ConvergenceRun } from './convergence.ts'
import { measureFleet } from './fleet.ts'
import { measureHttp } from './http.ts'
import { measureResync, measureResyncHeap, type ResyncPath, type ResyncResult } from './resync.ts'
import { measureReplicas, printReplicasReport } from './replicas.ts'
import { measureSealing } from './sealing.ts'
import { measureStorage, type StorageResult } from './storage.ts'
import { measureWorkerBundle } from './worker-bundle.ts'
import { measureWorkerdResync, type WorkerdResyncResult } from './workerd-resync.ts'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,5000,20000,100000' },
    'httproute-sizes': { type: 'string', default: '20000' },
    samples: { type: 'string', default: '40' },
    'storage-sizes': { type: 'string', default: '20000,100000' },
    'storage-samples': { type: 'string', default: '10' },
    'sealing-size': { type: 'string', default: '5000' },
    'http-size': { type: 'string', default: '20000' },
    'http-samples': { type: 'string', default: '40' },
    'convergence-samples': { type: 'string', default: '40' },
    'convergence-runs': { type: 'string', default: '5' },
    'turns-changes': { type: 'string', default: '100' },
    'churn-changes': { type: 'string', default: '200' },
    'fleet-clusters': { type: 'string', default: '100' },
    'fleet-ingresses': { type: 'string', default: '1000' },
    'fleet-events': { type: 'string', default: '1000' },
    'resync-sizes': { type: 'string', default: '20000,100000' },
    'resync-paths': { type: 'string', default: 'put,paged' },
    // Unset: 3 runs below 100,000 Ingresses, 1 at 100,000 and beyond (where one run takes many minutes).
    'resync-runs': { type: 'string' },
    'resync-heap-objects': { type: 'string', default: '100000' },
    // Off unless asked for (20000 is the size): at 20,000 Ingresses workerd alone spends about 2.5 minutes of CPU, 4 to 24 minutes of wall time on two shared cores.
    'workerd-resync-sizes': { type: 'string', default: '0' },
    'replica-writes': { type: 'string', default: '200' },
    'skip-worker-bundle': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})
const sizesOf = (flag: 'sizes' | 'httproute-sizes' | 'storage-sizes' | 'resync-sizes' | 'workerd-resync-sizes') => {
  // 0 skips the part, as it does for every other part's flag.
  if (values[flag] === '0') return []
  const sizes = values[flag]
    .split(',')
    .filter(Boolean)
    .map((size) => Number(size.trim()))
  if (sizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error(`--${flag}: whole numbers of at least 100, got ${values[flag]}`)
  return sizes
}
const sizes = sizesOf('sizes')
const httpRouteSizes = sizesOf('httproute-sizes')
const storageSizes = sizesOf('storage-sizes')
const resyncSizes = sizesOf('resync-sizes')
const workerdResyncSizes = sizesOf('workerd-resync-sizes')
const resyncPaths = values['resync-paths'].split(',').filter(Boolean) as ResyncPath[]
if (resyncPaths.some((path) => path !== 'put' && path !== 'paged')) throw new Error(`--resync-paths: put, paged or both, got ${values['resync-paths']}`)
/** How many times the resync rows run at `size`, each on fresh servers: each row prints their median and spread. */
const resyncRuns = (size: number) => {
  const given = values['resync-runs']
  if (given === undefined) return size >= 100_000 ? 1 : 3
  if (!/^[1-9]\d*$/.test(given)) throw new Error(`--resync-runs: a whole number of at least 1, got ${given}`)
  return Number(given)
}
// Checked before hours of other parts run.
resyncRuns(0)
if (!(globalThis as { gc?: unknown }).gc) console.warn('note: run with --expose-gc (npm run bench does) for steadier heap figures')

// Convergence runs first, on a quiet machine: the phases below leave a large heap in this process
// (where the agent runs) and gigabytes of fsynced files for the disk to write back.
const convergenceSamples = Number(values['convergence-samples'])
const wholeNumber = (
  flag: 'churn-changes' | 'turns-changes' | 'fleet-clusters' | 'fleet-ingresses' | 'fleet-events' | 'resync-heap-objects' | 'replica-writes',
) => {
  const value = Number(values[flag])
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${flag}: a whole number, 0 to skip, got ${values[flag]}`)
  return value
}
const churnChanges = wholeNumber('churn-changes')
const heapObjects = wholeNumber('resync-heap-objects')
const convergenceRuns = Math.max(1, Number(values['convergence-runs']) || 1)
if (convergenceSamples > 0)
  console.error(
    `measuring convergence through hapedge serve, the agent and HAProxy beside ${CONVERGENCE_BACKGROUNDS.join(' and ')} Ingresses (${convergenceRuns} runs, each on a fresh stack per size, the sizes taking turns change by change)…`,
  )
// Runs, not only samples: on these machines a whole run drifts with the disk, so its spread is part of the figure. Within a
// run the sizes take turns change by change (see measureConvergence): their ratio is a target.
const convergence: ConvergenceRun[] = []
for (let run = 0; run < (convergenceSamples > 0 ? convergenceRuns : 0); run++) convergence.push(await measureConvergence(convergenceSamples))
// Beside the convergence rows, on the same quiet machine: their two sizes' commits, taking turns in one server.
const turnsChanges = wholeNumber('turns-changes')
if (turnsChanges > 0)
  console.error(
    `measuring ${turnsChanges} path changes to each of two clusters taking turns in one hapedge serve, beside ${CONVERGENCE_BACKGROUNDS.join(' and ')} Ingresses…`,
  )
const turns = turnsChanges > 0 ? await measureCommitTurns(turnsChanges) : undefined
if (churnChanges > 0) console.error(`measuring ${churnChanges} mixed changes through hapedge serve, a listening agent and HAProxy…`)
const churn = churnChanges > 0 ? await measureChurn(churnChanges) : undefined

// The fleet next, while this process (its client) holds a small heap; it leaves its fsynced files behind as well.
const fleetOptions = { clusters: wholeNumber('fleet-clusters'), ingresses: wholeNumber('fleet-ingresses'), events: wholeNumber('fleet-events') }
const fleetRuns = Object.values(fleetOptions).every((value) => value > 0)
if (fleetRuns) console.error(`measuring ${fleetOptions.clusters} clusters of ${fleetOptions.ingresses} Ingresses behind one hapedge serve…`)
const fleet = fleetRuns ? await measureFleet(fleetOptions) : undefined

const results: SizeResult[] = []
for (const size of sizes) {
  console.error(`measuring ${size} Ingresses…`)
  // Fewer full rebuilds where each takes seconds: their median steadies sooner than the run time grows.
  results.push(await measureSize(size, { samples: Number(values.samples), fullRuns: size >= 100_000 ? 2 : size >= 20_000 ? 5 : 9 }))
}
if (results.length > 0) printReport(results)

const httpRoutes: SizeResult[] = []
for (const size of httpRouteSizes) {
  console.error(`measuring ${size} HTTPRoutes on one Gateway…`)
  httpRoutes.push(await measureHttpRoutes(size, { samples: Number(values.samples), fullRuns: size >= 20_000 ? 5 : 9 }))
}
if (httpRoutes.length > 0) printHttpRouteReport(httpRoutes)

const stored: StorageResult[] = []
for (const [i, size] of storageSizes.entries()) {
  console.error(`measuring ${size} Ingresses through object storage…`)
  stored.push(await measureStorage(size, Number(values['storage-samples']), i === storageSizes.length - 1))
}
if (stored.length > 0) printStorageReport(stored)

const sealingSize = Number(values['sealing-size'])
if (sealingSize > 0) {
  console.error(`measuring ${sealingSize} Ingresses sealed and plain…`)
  printSealingReport(await measureSealing(sealingSize, Number(values['storage-samples'])))
}

const httpSize = Number(values['http-size'])
if (httpSize > 0) {
  console.error(`measuring ${httpSize} Ingresses through hapedge serve…`)
  const inProcess = results.find((result) => result.size === httpSize)?.rows.find((row) => row.change === 'ingress-path')
  printHttpReport(await measureHttp(httpSize, Number(values['http-samples'])), inProcess?.incremental_ms_p50)
}

// Resyncs after the in-process rows: each runs its own server, and the 100,000-Ingress ones leave the most files for the disk to write back.
const resyncs: ResyncResult[] = []
for (const size of resyncSizes) {
  const runs = resyncRuns(size)
  console.error(
    `measuring resyncs of ${size} Ingresses through hapedge serve (${resyncPaths.join(', ')}; ${runs} run${runs > 1 ? 's' : ''}, each on fresh servers)…`,
  )
  resyncs.push(await measureResync(size, resyncPaths, runs))
}
if (heapObjects > 0) console.error(`measuring a paged resync of ${heapObjects} objects through hapedge serve under --max-old-space-size=64…`)
const heapCheck = heapObjects > 0 ? await measureResyncHeap(heapObjects) : undefined
if (resyncs.length > 0 || heapCheck) printResyncReport(resyncs, heapCheck)

if (convergence.length > 0) printConvergenceReport(convergence)
if (turns) printCommitTurnsReport(turns)
if (churn) printChurnReport(churn)
if (fleet) printFleetReport(fleet)
// Commits a second on one cluster with 1, 2 and 3 replicas of hapedge serve on one bucket of the conditional S3 double.
const replicaOptions = { writes: wholeNumber('replica-writes'), writers: 8, background: 200 }
if (replicaOptions.writes > 0) {
  console.error(`measuring ${replicaOptions.writes} writes on one cluster through 1, 2 and 3 hapedge serve replicas on one S3 bucket…`)
  printReplicasReport(await measureReplicas(replicaOptions), replicaOptions)
}
if (!values['skip-worker-bundle']) printWorkerBundleReport(await measureWorkerBundle())
// Last: wrangler dev runs for many minutes at 20,000 Ingresses, and workerd's local R2 is its own disk load.
const workerdResyncs: WorkerdResyncResult[] = []
for (const size of workerdResyncSizes) {
  console.error(`measuring a paged resync of ${size} Ingresses through wrangler dev (workerd, local R2)…`)
  workerdResyncs.push(await measureWorkerdResync(size))
}
if (workerdResyncs.length > 0) printWorkerdResyncReport(workerdResyncs)

if (values.json) {
  const rows = [
    ...results.flatMap((result) => result.rows),
    ...httpRoutes.flatMap((result) => result.rows),
    ...stored.flatMap((result) => result.rows),
    ...resyncs.flatMap((result) => result.rows),
    ...workerdResyncs.flatMap((result) => result.rows),
  ]
  await writeFile(values.json, `${JSON.stringify(heapCheck ? [...rows, { change: 'resync-heap-check', ...heapCheck }] : rows, null, 2)}\n`)
  console.log(`\nwrote ${values.json}`)
}
