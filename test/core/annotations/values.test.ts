import { describe, expect, it } from 'vitest'
import {
  absoluteUrl,
  cidrList,
  cidrListWithExceptions,
  corsOriginOrPattern,
  corsOrigins,
  haproxySize,
  haproxyTime,
  headerLines,
  headerPairs,
  MAX_TIMEOUT_MS,
  nginxHashBy,
  nginxSize,
  nginxTime,
  objectRef,
  secondsTime,
} from '../../../core/annotations/values.ts'

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message

describe('times, in milliseconds', () => {
  it.each([
    ['500', 500],
    ['500ms', 500],
    ['1500us', 2],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
  ])('an HAProxy time %j is %d ms (milliseconds when bare, configuration.txt §2.5)', (value, ms) => {
    expect(haproxyTime.parse(value)).toBe(ms)
  })

  it.each([
    ['60', 60_000],
    ['60s', 60_000],
    ['1m', 60_000],
    ['1w', 604_800_000],
  ])('an NGINX time %j is %d ms (seconds when bare)', (value, ms) => {
    expect(nginxTime.parse(value)).toBe(ms)
  })

  it("reads ingress-nginx's bare seconds, and nothing else", () => {
    expect(secondsTime.parse('120')).toBe(120_000)
    expect(message(secondsTime.safeParse('120s'))).toMatch(/whole number of seconds/)
  })

  it.each(['0', '0s', '-1s', '1.5s', '10 s', '1y', ''])('refuses %j', (value) => {
    expect(haproxyTime.safeParse(value).success).toBe(false)
  })

  it("refuses a timeout longer than HAProxy's longest", () => {
    expect(message(haproxyTime.safeParse('25d'))).toMatch(/longest timeout/)
    expect(haproxyTime.parse(`${MAX_TIMEOUT_MS}`)).toBe(MAX_TIMEOUT_MS)
  })
})

describe('body sizes, in bytes', () => {
  it.each([
    ['1000', 1000],
    ['8k', 8192],
    ['8K', 8192],
    ['8m', 8 * 1024 ** 2],
    ['1G', 1024 ** 3],
    ['0', null],
  ])('an NGINX size %j is %j (0 is no limit, as client_max_body_size 0)', (value, bytes) => {
    expect(nginxSize.parse(value)).toBe(bytes)
  })

  it("reads haproxy-ingress's sizes and its `unlimited`, and refuses 0, which it does not document", () => {
    expect(haproxySize.parse('10m')).toBe(10 * 1024 ** 2)
    expect(haproxySize.parse('unlimited')).toBeNull()
    expect(haproxySize.safeParse('0').success).toBe(false)
  })

  it.each(['8mb', '1.5m', '-1', 'm', ''])('refuses %j', (value) => {
    expect(nginxSize.safeParse(value).success).toBe(false)
  })
})

describe('source ranges', () => {
  it('reads IPv4 and IPv6 addresses and CIDRs, trimmed, and normalises prefix lengths', () => {
    expect(cidrList.parse(' 10.0.0.0/08 , 192.168.1.1,2001:db8::/32,::1 ')).toEqual({
      ranges: ['10.0.0.0/8', '192.168.1.1', '2001:db8::/32', '::1'],
      exceptions: [],
    })
  })

  it.each([
    ['10.0.0.0/33', /prefix length/],
    ['2001:db8::/129', /prefix length/],
    ['10.0.0.256', /IPv4 or IPv6/],
    ['example.com', /IPv4 or IPv6/],
    ['10.0.0.0/8/8', /IP address or CIDR/],
    ['', /at least one/],
    ['!10.0.0.1', /exceptions/],
  ])('refuses %j', (value, reason) => {
    expect(message(cidrList.safeParse(value))).toMatch(reason)
  })

  it("reads haproxy-ingress's `!` exceptions", () => {
    expect(cidrListWithExceptions.parse('10.0.0.0/8,!10.100.0.0/16')).toEqual({ ranges: ['10.0.0.0/8'], exceptions: ['10.100.0.0/16'] })
  })
})

describe('URLs and references', () => {
  it('accepts absolute http(s) URLs only, written literally', () => {
    expect(absoluteUrl.parse('https://example.com/a?b=c')).toBe('https://example.com/a?b=c')
    expect(message(absoluteUrl.safeParse('https://$host/oauth2/auth'))).toMatch(/NGINX variable/)
    expect(message(absoluteUrl.safeParse('/relative'))).toMatch(/absolute URL/)
    expect(message(absoluteUrl.safeParse('ftp://example.com/'))).toMatch(/http or https/)
    expect(message(absoluteUrl.safeParse('https://example.com/\nx'))).toMatch(/whitespace/)
  })

  it('reads "name" and "namespace/name"', () => {
    expect(objectRef.parse('users')).toEqual({ name: 'users' })
    expect(objectRef.parse('auth/users')).toEqual({ namespace: 'auth', name: 'users' })
    expect(objectRef.safeParse('a/b/c').success).toBe(false)
    expect(objectRef.safeParse('Users').success).toBe(false)
  })
})

describe('headers', () => {
  it('reads "Name value" and "name: value" lines, unquoting a quoted value', () => {
    expect(headerLines.parse('X-A 1\nx-b: two words\nCache-Control "no-store"')).toEqual([
      { name: 'X-A', value: '1' },
      { name: 'x-b', value: 'two words' },
      { name: 'Cache-Control', value: 'no-store' },
    ])
  })

  it('refuses a header name that is not a token, and a value with control characters', () => {
    expect(headerLines.safeParse('Bad(Name) x').success).toBe(false)
    expect(headerLines.safeParse('X-A a\u0000b').success).toBe(false)
  })

  it("reads NGINX Inc.'s comma-separated pairs, and says why a bare name is not needed", () => {
    expect(headerPairs.parse('a: 1, b: 2')).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ])
    expect(message(headerPairs.safeParse('X-Forwarded-User'))).toMatch(/name alone/)
  })
})

describe('CORS origins', () => {
  it('reads "*" and lists of origins, with a wildcard first label', () => {
    expect(corsOrigins.parse('*')).toEqual({ any: true })
    expect(corsOrigins.parse('https://api.example.com , https://*.example.com:8443')).toEqual({
      origins: ['https://api.example.com', 'https://*.example.com:8443'],
    })
    expect(corsOrigins.safeParse('*, https://a.example').success).toBe(false)
    expect(corsOrigins.safeParse('example.com').success).toBe(false)
  })

  it("reads haproxytech's regular expression, and refuses one that does not compile", () => {
    expect(corsOriginOrPattern.parse('^https://(.+\\.)?example\\.com$')).toEqual({ pattern: '^https://(.+\\.)?example\\.com$' })
    expect(corsOriginOrPattern.safeParse('^https://(').success).toBe(false)
  })
})

describe("ingress-nginx's upstream-hash-by", () => {
  it.each([
    ['$remote_addr', { source: true }],
    ['$binary_remote_addr', { source: true }],
    ['$request_uri', { uri: true }],
    ['${request_uri}', { uri: true }],
    ['$http_x_user_id', { header: 'x-user-id' }],
    ['$cookie_session', { cookie: 'session' }],
  ])('%j hashes by %j', (value, by) => {
    expect(nginxHashBy.parse(value)).toEqual(by)
  })

  it("refuses combinations, which HAProxy's balance cannot hash", () => {
    expect(nginxHashBy.safeParse('$request_uri$host').success).toBe(false)
  })
})
