import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { backend, BINDS, brokenLinks, callJson, committedFiles, historyOnDisk, rendered, sendEvents, streamIngress, writesIn } from './ingress-writes.ts'

/**
 * Two `hapedge serve` processes on one data directory, as two replicas on a shared volume would
 * run: they agree on the admin token, and one cluster's writes sent to both, alternately and at
 * once, all land: HEAD moves by compare-and-swap across the processes, so the generations are
 * 1..N, each made once, by one process, chained to the one before.
 */

const WRITES = 40
const WRITERS = 4
const CLUSTER = 'shared'

describe('two hapedge serve processes on one data directory', () => {
  let tmp: string | undefined
  let servers: Served[] = []

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    if (tmp) await removeTempDir(tmp)
  })

  it('commits every write sent to either, generations 1..N chained without a gap or a number made twice', async () => {
    tmp = await makeTempDir('hapedge-e2e-shared')
    const data = join(tmp, 'data')
    // Started at once on an empty directory: each would make the admin token and the deployment secret.
    servers = await Promise.all([startServe(['--data', data]), startServe(['--data', data])])
    const [a, b] = servers as [Served, Served]
    expect(b.adminToken).toBe(a.adminToken)

    const registered = await callJson(a.url, 'POST', '/v1/clusters', a.adminToken, { id: CLUSTER, ...BINDS })
    expect(registered?.status).toBe(201)
    const token = registered!.body.token as string
    expect(await sendEvents(b.url, CLUSTER, token, backend)).toBe(1)

    /** Which server answered each generation, and the generation each write was answered with. */
    const answeredBy = new Map<number, Set<string>>()
    const acknowledged = new Map<number, number>()
    let next = 0
    // Four writers at once; write n goes to the server its parity names, so the two alternate.
    const writers = Array.from({ length: WRITERS }, async () => {
      for (let n = next++; n < WRITES; n = next++) {
        const target = servers[n % 2]!
        const generation = await sendEvents(target.url, CLUSTER, token, [streamIngress(n)])
        expect(generation, `write ${n} to ${target.url}`).toBeDefined()
        acknowledged.set(n, generation!)
        answeredBy.set(generation!, (answeredBy.get(generation!) ?? new Set()).add(target.url))
      }
    })
    await Promise.all(writers)
    expect(acknowledged.size).toBe(WRITES)
    expect(new Set([...answeredBy.values()].flatMap((urls) => [...urls]))).toEqual(new Set([a.url, b.url]))
    for (const [generation, urls] of answeredBy) expect(urls.size, `generation ${generation} answered by ${[...urls].join(' and ')}`).toBe(1)

    const fromA = await committedFiles(a.url, CLUSTER, token)
    const fromB = await committedFiles(b.url, CLUSTER, token)
    expect(fromB.manifest).toBe(fromA.manifest)
    expect(writesIn(fromA.files)).toEqual(new Set(acknowledged.keys()))
    expect(fromA.files).toEqual(await rendered(tmp, [...backend, ...[...acknowledged.keys()].sort((x, y) => x - y).map(streamIngress)]))

    const { head, records } = await historyOnDisk(data, CLUSTER)
    expect(head).toMatchObject({ generation: fromA.generation, manifest: fromA.manifest })
    expect([...records.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: head.generation }, (_, i) => i + 1))
    expect(brokenLinks(head, records)).toEqual([])
  })
})
