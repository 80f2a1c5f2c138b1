import { describe, expect, it } from 'vitest'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { Delivery } from '../../../processes/forwarder/delivery.ts'
import { FunctionClient } from '../../../processes/forwarder/function-client.ts'
import { eventually } from '../../support/eventually.ts'
import { writeAnswerOf } from '../../support/write-answers.ts'

const event = (name: string, padding = 0): WatchEvent => ({
  type: 'MODIFIED',
  object: { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, ...(padding ? { padding: 'x'.repeat(padding) } : {}) },
})
const ok = (generation: number) => new Response(JSON.stringify(writeAnswerOf({ generation })), { status: 200 })
const refuse = (status: number, message: string, path?: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message, ...(path ? { path } : {}) } }), { status, headers })

/** A Delivery over the real FunctionClient, whose fetch answers from `answer` and records each request's body. */
function deliveryWith(
  answer: (body: { events?: WatchEvent[]; items?: unknown[] }, call: number) => Response | Promise<Response>,
  options: { maxEvents?: number; maxBytes?: number } = {},
) {
  const bodies: { events?: WatchEvent[]; items?: unknown[] }[] = []
  const log: string[] = []
  let snapshots = 0
  const fetcher = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { events?: WatchEvent[] }
    bodies.push(body)
    return answer(body, bodies.length)
  }) as typeof fetch
  const delivery = new Delivery(new FunctionClient({ source: 'http://function.test', cluster: 'prod', token: 't' }, fetcher), {
    maxEvents: options.maxEvents ?? 100,
    maxBytes: options.maxBytes ?? 1 << 20,
    delayMs: 5,
    backoff: { baseMs: 1, maxMs: 50 },
    snapshot: () => ({ items: [{ snapshot: ++snapshots }] }),
    log: (line) => log.push(line),
  })
  const sentNames = () => bodies.flatMap((body) => (body.events ?? []).map((sent) => (sent.object.metadata as { name: string }).name))
  return { delivery, bodies, log, sentNames }
}

describe('Delivery: the forwarder’s ordered sender', () => {
  it('closes a batch at its count or byte bound and sends the batches in order', async () => {
    const { delivery, bodies, sentNames } = deliveryWith(() => ok(1), { maxEvents: 3, maxBytes: 600 })
    for (let n = 0; n < 7; n++) delivery.add(event(`s${n}`))
    delivery.add(event('big', 400))
    delivery.add(event('after'))
    await delivery.drain(5_000)
    expect(bodies.map((body) => body.events!.length)).toEqual([3, 3, 1, 1, 1])
    expect(bodies.every((body) => JSON.stringify(body).length < 700)).toBe(true)
    expect(sentNames()).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6', 'big', 'after'])
  })

  it('waits at least what Retry-After says on a 503, then sends the same batch again', async () => {
    const { delivery, bodies, log } = deliveryWith((_body, call) => (call === 1 ? refuse(503, 'HEAD is contended', undefined, { 'retry-after': '1' }) : ok(2)))
    delivery.add(event('a'))
    await delivery.drain(10_000)
    expect(bodies).toHaveLength(2)
    expect(bodies[1]).toEqual(bodies[0])
    expect(log[0]).toBe('POST http://function.test/v1/clusters/prod/events: 503 HEAD is contended; sending again in 1000 ms')
    expect(log[1]).toMatch(/^1 event → generation 2 \(committed\) in \d+ ms$/)
  })

  it('logs how many objects were rejected and how many annotations warned of', async () => {
    const warnings = [{ object: 'Ingress default/a', annotation: 'nginx.ingress.kubernetes.io/proxy-buffering', reason: 'not supported by hapedge' }]
    const answer = writeAnswerOf({ generation: 4, rejected: [{ object: 'Ingress default/b', reason: 'bad' }], warnings, warningCount: 1 })
    const { delivery, log } = deliveryWith(() => new Response(JSON.stringify(answer), { status: 200 }))
    delivery.add(event('a'))
    await delivery.drain(5_000)
    expect(log).toEqual([expect.stringMatching(/^1 event → generation 4 \(committed, 1 rejected, 1 annotation warnings\) in \d+ ms$/)])
  })

  it('splits a batch the function finds too large until every part is taken', async () => {
    const { delivery, sentNames, log } = deliveryWith((body) =>
      body.events && body.events.length > 2 ? refuse(413, 'the body is larger than 100 bytes; send smaller batches') : ok(3),
    )
    for (const name of ['a', 'b', 'c', 'd', 'e']) delivery.add(event(name))
    await delivery.drain(5_000)
    const delivered = sentNames().slice(-5)
    expect(delivered).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(log.filter((line) => /splitting the batch/.test(line)).length).toBeGreaterThan(0)
  })

  it('sets aside the one event a 400 names and sends the others', async () => {
    const { delivery, bodies, log } = deliveryWith((body) =>
      body.events?.some((sent) => (sent.object.metadata as { name: string }).name === 'bad')
        ? refuse(400, 'must be a DNS label', 'events[1].object.metadata.name')
        : ok(4),
    )
    for (const name of ['a', 'bad', 'c']) delivery.add(event(name))
    await delivery.drain(5_000)
    expect(bodies.at(-1)!.events!.map((sent) => (sent.object.metadata as { name: string }).name)).toEqual(['a', 'c'])
    expect(log).toContain(
      'POST http://function.test/v1/clusters/prod/events: 400 must be a DNS label (at events[1].object.metadata.name); not sending MODIFIED Service default/bad again, sending the other 2',
    )
  })

  it('does not send a refused batch forever: it logs why, and a full resync follows', async () => {
    const { delivery, bodies, log } = deliveryWith((body) => (body.events ? refuse(403, 'this token opens another cluster') : ok(5)))
    delivery.add(event('a'))
    await delivery.drain(5_000)
    expect(bodies.map((body) => (body.events ? 'events' : 'resync'))).toEqual(['events', 'resync'])
    expect(bodies[1]!.items).toEqual([{ snapshot: 1 }])
    expect(log[0]).toBe('POST http://function.test/v1/clusters/prod/events: 403 this token opens another cluster; 1 event(s) not sent, a resync follows')
  })

  it('asks for another resync when one is asked for while one is on its way (that one read the state before the ask), and lets one still waiting cover later asks', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const { delivery, bodies } = deliveryWith(async (_body, call) => {
      if (call === 1) await gate
      return ok(6)
    })
    delivery.resync()
    await eventually('the first resync to be on its way', () => bodies.length === 1)
    delivery.resync()
    delivery.resync()
    release()
    await delivery.drain(5_000)
    expect(bodies.map((body) => body.items)).toEqual([[{ snapshot: 1 }], [{ snapshot: 2 }]])
  })
})
