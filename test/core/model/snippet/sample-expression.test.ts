import { describe, expect, it } from 'vitest'
import { checkLogFormat } from '../../../../core/model/snippet/log-format.ts'
import { checkSampleExpression, parseCalls } from '../../../../core/model/snippet/sample-expression.ts'
import { FETCHES } from '../../../../core/model/snippet/vocabulary.ts'

describe('a sample expression in a snippet', () => {
  it('is read as HAProxy reads it: a fetch, its arguments with quotes and escapes, then converters', () => {
    expect(parseCalls('req.hdr(x-user),lower,regsub("^a(b),c",",",g)')).toEqual([
      { name: 'req.hdr', args: ['x-user'] },
      { name: 'lower', args: [] },
      { name: 'regsub', args: ['^a(b),c', ',', 'g'] },
    ])
    expect(parseCalls(`str("a\\"b'c"),concat(,txn.x,)`)).toEqual([
      { name: 'str', args: [`a"b'c`] },
      { name: 'concat', args: ['', 'txn.x', ''] },
    ])
  })

  it('passes with an allowed fetch and allowed converters, and is refused by the name it uses otherwise', () => {
    expect(() => checkSampleExpression('req.hdr(host),field(1,:),lower', FETCHES)).not.toThrow()
    expect(() => checkSampleExpression('var(txn.user),concat(-,req.id,)', FETCHES)).not.toThrow()
    expect(() => checkSampleExpression('env(HOME)', FETCHES)).toThrow(/"env" is not allowed/)
    expect(() => checkSampleExpression('src,map_ip(maps/hosts.map)', FETCHES)).toThrow(/"map_ip" is not allowed/)
    expect(() => checkSampleExpression('path_beg', FETCHES)).toThrow(/"path_beg" is not allowed/)
    expect(() => checkSampleExpression('var(sess.x)', FETCHES)).toThrow(/"var\(sess.x\)" is not allowed/)
  })

  it('is refused when it cannot be read whole, rather than guessed', () => {
    expect(() => parseCalls('str(a')).toThrow(/expected "\)" closing the arguments/)
    expect(() => parseCalls('str(a)x')).toThrow(/expected "," or the end/)
    expect(() => parseCalls('src,')).toThrow(/expected a sample fetch or converter name/)
    expect(() => parseCalls('')).toThrow(/expected a sample fetch or converter name/)
  })

  it('in a log-format string is checked in every %[…] and %{flags}[…], each ending at the first "]"', () => {
    expect(() => checkLogFormat('%ci:%cp %[src] %{+Q}[req.hdr(host)] 100%% done')).not.toThrow()
    expect(() => checkLogFormat('ok %{+Q}[env(HOME)]')).toThrow(/"env" is not allowed/)
    expect(() => checkLogFormat('%[str("]"),env(HOME)]')).toThrow(/expected "\)" closing the arguments/)
    expect(() => checkLogFormat('%[str([),env(HOME)]')).toThrow(/no "\[" inside the sample expression/)
  })
})
