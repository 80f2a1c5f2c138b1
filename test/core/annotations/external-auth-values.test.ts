import { describe, expect, it } from 'vitest'
import {
  authMethod,
  authResponseHeaders,
  authSignin,
  authUrl,
  haproxyIngressSignin,
  haproxyIngressSucceedHeaders,
  redirectParam,
  requestRedirect,
} from '../../../core/annotations/external-auth-values.ts'

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message

describe('auth-url', () => {
  it.each(['http://auth.default.svc.cluster.local:8080/verify', 'https://10.0.0.2/auth', 'http://[fd00::1]:8080/check?scope=a,b', 'https://$host/oauth2/auth'])(
    'reads %s as written',
    (url) => {
      expect(authUrl.parse(url)).toBe(url)
    },
  )

  it.each([
    ['ftp://auth.example.com/', /http or https/],
    ['/relative', /absolute URL/],
    ['https://user:secret@auth.example.com/', /credentials/],
    ['https://auth.example.com/a b', /without spaces/],
    ['https://auth.example.com/x;y', /";"/],
    ['https://auth.example.com/x|GET', /"\|"/],
    ['https://auth.example.com/"x', /quotes/],
    ['https://auth.example.com/%[env(HOME)]', /%\[/],
    ['https://auth.example.com/#frag', /"#"/],
    ['https://$request_uri/x', /\$request_uri is not a variable hapedge reads in auth-url \(only \$host\)/],
    ['https://$hostname/x', /\$hostname is not a variable/],
    ['https://-bad-.example.com/', /DNS host or an IP address/],
    ['https://*.example.com/', /./],
    ['svc://auth-cluster:8443/auth', /http or https/],
  ])('refuses %s', (url, reason) => {
    expect(message(authUrl.safeParse(url))).toMatch(reason)
  })
})

describe('auth-signin', () => {
  it('reads the per-request variables ingress-nginx documents', () => {
    for (const url of ['https://$host/oauth2/start?rd=$escaped_request_uri', 'https://login.example.com/?rd=$scheme://$http_host$request_uri'])
      expect(authSignin.parse(url)).toBe(url)
    expect(message(authSignin.safeParse('https://login.example.com/?u=$remote_user'))).toMatch(/\$remote_user is not a variable/)
  })

  it("reads haproxy-ingress's log-format string only as a plain URL", () => {
    expect(haproxyIngressSignin.parse('https://auth.example.com/login')).toBe('https://auth.example.com/login')
    expect(message(haproxyIngressSignin.safeParse('https://auth.example.com/login?rd=%[path]'))).toMatch(/%\[/)
    expect(message(haproxyIngressSignin.safeParse('https://$host/login'))).toMatch(/none is/)
  })
})

describe('the other external authentication values', () => {
  it('reads the methods HAProxy’s HTTP client sends and refuses the others', () => {
    expect(authMethod.parse('POST')).toBe('POST')
    expect(message(authMethod.safeParse('PATCH'))).toMatch(/GET, HEAD, POST, PUT, DELETE/)
    expect(message(authMethod.safeParse('*'))).toMatch(/must be one of/)
  })

  it('reads header names lower-cased, once each, and refuses anything a map value or the Lua could misread', () => {
    expect(authResponseHeaders.parse('X-Auth-User, x-auth-user,X-Email')).toEqual(['x-auth-user', 'x-email'])
    expect(message(authResponseHeaders.safeParse('X-User|GET'))).toMatch(/header name/)
    expect(message(authResponseHeaders.safeParse('X-User:1'))).toMatch(/header name/)
    expect(message(authResponseHeaders.safeParse(''))).toMatch(/at least one/)
    expect(haproxyIngressSucceedHeaders.parse('-')).toEqual([])
    expect(message(haproxyIngressSucceedHeaders.safeParse('X-User-*'))).toMatch(/header name/)
  })

  it('reads a redirect parameter and an X-Auth-Request-Redirect without what would end their field', () => {
    expect(redirectParam.parse('return_to')).toBe('return_to')
    expect(redirectParam.parse('')).toBe('')
    expect(message(redirectParam.safeParse('rd&x=1'))).toMatch(/query parameter name/)
    expect(requestRedirect.parse('https://shop.example.com/after')).toBe('https://shop.example.com/after')
    expect(message(requestRedirect.safeParse('/a|b'))).toMatch(/"\|"/)
  })
})
