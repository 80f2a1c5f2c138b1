import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import {
  backend,
  BINDS,
  brokenLinks,
  callJson,
  committedFiles,
  historyOnDisk,
  rendered,
  seededRandom,
  sendEvents,
  streamIngress,
  writesIn,
} from './ingress-writes.ts'

/**
 * `hapedge serve` killed with SIGKILL while writes stream in, and started again on the same data
 * directory, a few times: every write it acknowledged (200 with its generation) is in the state
 * HEAD names at the end, the files are exactly what `hapedge render` makes of that state, and the
 * generations go on from where the last acknowledged one was, each recorded, chained to its parent.
 */

const KILLS = 4
const WRITERS = 3
const CLUSTER = 'crash'

describe('hapedge serve killed during a stream of writes', () => {
  let tmp: string | undefined
  let served: Served | undefined

  afterAll(async () => {
    await served?.stop()
    if (tmp) await removeTempDir(tmp)
  })

  it('keeps every acknowledged write across SIGKILLs, and serves what a full render of the final objects gives', async () => {
    tmp = await makeTempDir('hapedge-e2e-crash')
    const data = join(tmp, 'data')
    const random = seededRandom(16)
    served = await startServe(['--data', data])
    const registered = await callJson(served.url, 'POST', '/v1/clusters', served.adminToken, { id: CLUSTER, ...BINDS })
    const token = registered?.body.token as string
    expect(await sendEvents(served.url, CLUSTER, token, backend)).toBe(1)

    /** Per life of the server, the generation each acknowledged write was answered with. */
    const lives: Map<number, number>[] = []
    let next = 0
    for (let kill = 0; kill < KILLS; kill++) {
      const server: Served = served
      const acknowledged = new Map<number, number>()
      lives.push(acknowledged)
      // Each writer sends one Ingress at a time until the server stops answering; a write without an answer is not acknowledged.
      const writers = Array.from({ length: WRITERS }, async () => {
        for (;;) {
          const n = next++
          const generation = await sendEvents(server.url, CLUSTER, token, [streamIngress(n)])
          if (generation === undefined) return
          acknowledged.set(n, generation)
        }
      })
      await sleep(300 + random() * 900)
      server.process.kill('SIGKILL')
      await Promise.all(writers)
      served = await startServe(['--data', data])
    }
    // The last life is not cut short: a few writes, each answered.
    const last = new Map<number, number>()
    lives.push(last)
    for (let write = 0; write < 5; write++) {
      const n = next++
      const generation = await sendEvents(served.url, CLUSTER, token, [streamIngress(n)])
      expect(generation, `write ${n} after the last restart`).toBeDefined()
      last.set(n, generation!)
    }

    const final = await committedFiles(served.url, CLUSTER, token)
    const present = writesIn(final.files)
    const acknowledged = lives.flatMap((life) => [...life])
    for (const [n, generation] of acknowledged) expect(present.has(n), `write ${n}, acknowledged as generation ${generation}`).toBe(true)
    for (const n of present) expect(n).toBeLessThan(next)

    // The files HEAD names are exactly the rendering of the objects it holds: no half-applied write.
    expect(final.files).toEqual(await rendered(tmp, [...backend, ...[...present].sort((a, b) => a - b).map(streamIngress)]))

    // A restarted server goes on after the generations acknowledged before: none is handed out twice.
    for (let life = 1; life < lives.length; life++) {
      const before = Math.max(1, ...lives.slice(0, life).flatMap((earlier) => [...earlier.values()]))
      for (const generation of lives[life]!.values()) expect(generation).toBeGreaterThan(before)
    }
    expect(final.generation).toBeGreaterThanOrEqual(Math.max(...acknowledged.map(([, generation]) => generation)))

    // Every generation has its record, though a kill may have fallen between HEAD moving and the record's write (a later commit writes it),
    // and each names the one before it as its parent.
    const { head, records } = await historyOnDisk(data, CLUSTER)
    expect(head).toMatchObject({ generation: final.generation, manifest: final.manifest })
    expect([...records.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: head.generation }, (_, i) => i + 1))
    expect(brokenLinks(head, records)).toEqual([])
  })
})
