import { execFile } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ACL_KEYWORDS, CONVERTERS, FETCHES, HAPROXY_CONVERTERS } from '../../core/model/snippet/vocabulary.ts'
import { haproxyBinary } from '../support/haproxy.ts'

/** The snippet allow-list against the keywords the installed HAProxy registers (`haproxy -dK<class>`). */

/** Everything `haproxy <args>` prints; the keyword dump exits with an error once it has printed, so that is not a failure. */
function output(args: string[]): Promise<string> {
  return new Promise((resolve) => execFile(haproxyBinary, args, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`)))
}

/** The keyword names HAProxy lists for one class: `smp` fetches, `cnv` converters, `acl` ACL keywords. */
async function registered(keywordClass: 'smp' | 'cnv' | 'acl'): Promise<Set<string>> {
  const names = (await output([`-dK${keywordClass}`, '-q', '-c', '-f', '/dev/null']))
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => /^(?:\[[ .Y]*\] )?([^\s(:=]+)/.exec(line)?.[1])
  return new Set(names.filter((name) => name !== undefined))
}

describe('the snippet allow-list names what HAProxy knows', () => {
  it('allows only fetches, ACL keywords and converters this HAProxy registers', async () => {
    const [fetches, aclKeywords, converters] = await Promise.all([registered('smp'), registered('acl'), registered('cnv')])
    expect(fetches.size).toBeGreaterThan(FETCHES.size)
    expect([...FETCHES].filter((name) => !fetches.has(name))).toEqual([])
    expect([...ACL_KEYWORDS].filter((name) => !fetches.has(name) && !aclKeywords.has(name))).toEqual([])
    expect([...CONVERTERS].filter((name) => !converters.has(name))).toEqual([])
  })

  it('knows every converter this HAProxy registers, so a word naming one after an expression is never taken for a pattern', async () => {
    const converters = await registered('cnv')
    expect(converters.size).toBeGreaterThan(CONVERTERS.size)
    expect([...converters].filter((name) => !HAPROXY_CONVERTERS.has(name))).toEqual([])
  })
})
