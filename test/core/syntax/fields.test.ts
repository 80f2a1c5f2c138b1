import { isIPv6 } from 'node:net'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostname, httpPath, ipv6Address, isHostnameField, isIpv6, isObjectName, objectName, quote } from '../../../core/syntax/fields.ts'
import { runs } from '../../support/property-runs.ts'

describe('object names', () => {
  it.each([
    ['a label of 63 characters', `${'a'.repeat(63)}.b`, true],
    ['a label of 64 characters', `b.${'a'.repeat(64)}`, false],
    ['one label of 64 characters', 'a'.repeat(64), false],
    ['dots and labels', 'web-1.team.example', true],
    ['an empty label', 'web..team', false],
    ['an uppercase letter', 'Web', false],
  ])('%s: the schema and the fast check agree (%s)', (_, name, valid) => {
    expect(objectName.safeParse(name).success).toBe(valid)
    expect(isObjectName(name)).toBe(valid)
  })
})

describe('hostname', () => {
  it.each(['foo.com', 'a.b.c.example.org', '*.foo.com', 'x', 'xn--bcher-kva.example', 'a-b.c0'])('accepts %j, as the fast check does', (host) => {
    expect(hostname.safeParse(host).success).toBe(true)
    expect(isHostnameField(host)).toBe(true)
  })

  it.each([
    ['uppercase', 'Foo.com'],
    ['a space', 'foo .com'],
    ['a newline', 'foo.com\nbackend evil'],
    ['a quote', 'foo"com'],
    ['a comment', 'foo.com#x'],
    ['a sample fetch', '%[req.hdr(x)]'],
    ['a wildcard label that is not the first', 'foo.*.com'],
    ['two wildcard labels', '*.*.com'],
    ['a bare wildcard', '*'],
    ['an IP address', '10.0.0.1'],
    ['an empty label', 'foo..com'],
    ['a label over 63 characters', `${'a'.repeat(64)}.com`],
    ['a name over 253 characters', Array.from({ length: 64 }, () => 'abc').join('.')],
    ['a control character', 'foo\u0000.com'],
    ['a slash', 'foo.com/evil'],
    ['a port', 'foo.com:80'],
  ])('refuses a host with %s, as the fast check does', (_, host) => {
    const result = hostname.safeParse(host)
    expect(isHostnameField(host)).toBe(false)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/must be|at most/)
  })
})

describe('httpPath', () => {
  it.each(['/', '/foo', '/foo/', '/a-b_c.d~e', '/%20space', '/x:y@z!$&()*+,;='])('accepts %j', (path) => {
    expect(httpPath.safeParse(path).success).toBe(true)
  })

  it.each([
    ['a relative path', 'foo'],
    ['a space', '/foo bar'],
    ['a newline', '/foo\n    use_backend evil'],
    ['a tab', '/foo\tbar'],
    ['a double quote', '/foo"'],
    ['a single quote', "/foo'"],
    ['a fragment', '/foo#bar'],
    ['a query', '/foo?x=1'],
    ['a sample fetch', '/%[req.hdr(host)]'],
    ['a lone percent', '/100%'],
    ['a regular expression', '/api(/|$)(.*)'],
    ['a backslash', '/foo\\bar'],
    ['a control character', '/foo\u0007'],
    ['a length over 1024', `/${'a'.repeat(1024)}`],
  ])('refuses a path with %s', (_, path) => {
    expect(httpPath.safeParse(path).success).toBe(false)
  })

  it('quotes the refused value with control characters escaped', () => {
    const message = httpPath.safeParse('/a\nb').error?.issues[0]?.message
    expect(message).toContain('"/a\\nb"')
    expect(message).not.toContain('\n')
  })
})

describe('ipv6Address', () => {
  it.each(['::1', 'fd00::1', '2001:db8::8:800:200c:417a', '::ffff:10.0.0.1', '1:2:3:4:5:6:7:8'])('accepts %j', (address) => {
    expect(ipv6Address.safeParse(address).success).toBe(true)
  })
  it.each(['1::2::3', '12345::1', '1:2:3:4:5:6:7:8:9', '::1 ', 'fe80::1%eth0', '10.0.0.1', ':::::', '1:::2', '1::2:', ':1::2', '1.2.3.4::', '::1.2.3.04'])(
    'refuses %j',
    (address) => {
      expect(ipv6Address.safeParse(address).success).toBe(false)
    },
  )

  it('agrees with Node on strings of hex digits, colons and dots', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:.', ':', ':', '.'), maxLength: 45 })
    const nearIpv6 = fc.oneof(
      text,
      fc.ipV6(),
      fc.tuple(fc.ipV6(), text).map(([address, tail]) => address + tail),
    )
    fc.assert(
      fc.property(nearIpv6, (address) => isIpv6(address) === isIPv6(address)),
      { numRuns: runs(20_000) },
    )
  })
})

describe('quote', () => {
  it.each([
    ['a line separator', 'evil.com\u2028Ingress other/app: accepted'],
    ['a paragraph separator', 'a\u2029b'],
    ['a right-to-left override', 'moc.live\u202Eexample.com'],
    ['an isolate', '\u2067admin\u2069'],
    ['a newline', 'a\nb'],
  ])('shows %s as an escape, so a reason stays one line that reads as it is', (_, value) => {
    const quoted = quote(value)
    expect(quoted).toMatch(/^"[\x20-\x7e]*"$/)
    expect(JSON.parse(quoted)).toBe(value)
  })
})
