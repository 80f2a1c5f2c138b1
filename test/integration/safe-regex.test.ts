import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSafeRegex } from '../../core/syntax/safe-regex.ts'
import { emitRegex } from '../../core/syntax/safe-regex-emit.ts'
import { arbitraryMatchedText, arbitrarySafeRegex } from '../support/arbitrary-regex.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyCheck, type RunningHaproxy, startHaproxy } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/**
 * Every expression the safe-regex reader emits is one HAProxy 2.6 (PCRE2, JIT) loads as a map_reg
 * key, and matches there as JavaScript's RegExp does: many generated ones in one map, each behind
 * its own id, probed with generated strings sent percent-encoded in the query.
 */

const PATTERNS = 150
const PROBES = 4

interface Case {
  key: string
  inputs: string[]
}

function cases(): Case[] {
  const written = fc.sample(arbitrarySafeRegex, { numRuns: PATTERNS * 4, seed: 20 })
  const emitted = [
    ...new Set(
      written.flatMap((text) => {
        const read = readSafeRegex(text)
        return 'refused' in read ? [] : [emitRegex(read.tree)]
      }),
    ),
  ].slice(0, PATTERNS)
  const inputs = fc.sample(arbitraryMatchedText, { numRuns: emitted.length * PROBES, seed: 22 })
  return emitted.map((regex, id) => ({ key: `^${id}:(?:${regex})`, inputs: inputs.slice(id * PROBES, (id + 1) * PROBES) }))
}

describe('safe regular expressions in HAProxy', () => {
  let dir: string
  let port: number
  let haproxy: RunningHaproxy
  const all = cases()

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-safe-regex')
    port = await freePort()
    await mkdir(join(dir, 'maps'))
    await writeFile(join(dir, 'maps/probe.map'), all.map(({ key }) => `${key} 1\n`).join(''))
    await writeFile(
      join(dir, 'haproxy.cfg'),
      [
        'defaults',
        '    mode http',
        '    timeout connect 5s',
        '    timeout client 5s',
        '    timeout server 5s',
        'frontend probe',
        `    bind 127.0.0.1:${port}`,
        '    http-request return status 200 content-type text/plain lf-string "%[query,url_dec,map_reg(maps/probe.map,0)]"',
        '',
      ].join('\n'),
    )
    haproxy = await startHaproxy({ dir, readyPorts: [port] })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await removeTempDir(dir)
  })

  it('loads every emitted expression', async () => {
    expect(all.length).toBeGreaterThan(PATTERNS / 2)
    expect((await haproxyCheck(dir)).ok).toBe(true)
  })

  it('matches each as JavaScript does', async () => {
    for (const [id, { key, inputs }] of all.entries())
      for (const input of inputs) {
        const probe = `${id}:${input}`
        const answer = await request(`http://127.0.0.1:${port}/?${encodeURIComponent(probe)}`)
        expect({ key, input, matched: answer.body }).toEqual({ key, input, matched: new RegExp(key).test(probe) ? '1' : '0' })
      }
  })
})
