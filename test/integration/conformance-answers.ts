import type { HttpResponse } from '../support/http-client.ts'
import type { ConformanceEcho } from '../support/conformance-echo.ts'
import { expect } from 'vitest'
import { PASSING, UNREPORTED, type ConformanceRequest, type ExpectedAnswer } from './gateway-conformance-cases.ts'

/**
 * What differs between an answer and what the conformance suite expects of it, each as one line
 * (none: the answer passes). Ported from the suite's comparison: the status first; for a redirect,
 * its target; for a 200, the echo's pod and namespace, the request as the backend saw it, and the
 * response's headers. Header values are compared as comma-joined lists, lines and all.
 */
export function answerDifferences(expected: ExpectedAnswer, response: HttpResponse, sentHost: string): string[] {
  const request = describeRequest(expected.request)
  const status = expected.status ?? 200
  if (response.status !== status) return [`${request}: HTTP ${response.status}, expected ${status}`]
  if (expected.redirect) return redirectDifferences(expected, response, sentHost).map((line) => `${request}: ${line}`)
  if (status !== 200) return []
  const echo = echoOf(response)
  if (!echo) return [`${request}: the answer is not the echo's (${response.body.slice(0, 80)})`]
  return [
    ...echoDifferences(expected, echo),
    ...headerDifferences('response header', (name) => headerLines(response.headers[name]), expected.responseHeaders, expected.absentResponseHeaders),
  ].map((line) => `${request}: ${line}`)
}

/** `GET host/path over TLS to sni [headers]` */
export function describeRequest(request: ConformanceRequest): string {
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`)
  const sni = request.sni ? ` over TLS to ${request.sni}` : ''
  return `${request.method ?? 'GET'} ${request.host ?? ''}${request.path}${sni}${headers.length ? ` [${headers.join(', ')}]` : ''}`
}

export function echoOf(response: HttpResponse): ConformanceEcho | undefined {
  try {
    const echo = response.json() as ConformanceEcho
    return typeof echo.pod === 'string' ? echo : undefined
  } catch {
    return undefined
  }
}

function echoDifferences(expected: ExpectedAnswer, echo: ConformanceEcho): string[] {
  const differences: string[] = []
  if (expected.backend && !echo.pod.startsWith(expected.backend)) differences.push(`answered by ${echo.pod}, expected ${expected.backend}`)
  if (expected.namespace && echo.namespace !== expected.namespace) differences.push(`answered from ${echo.namespace}, expected ${expected.namespace}`)
  const path = expected.seen?.path ?? expected.request.path
  if (echo.path !== path) differences.push(`the backend saw path ${echo.path}, expected ${path}`)
  if (expected.seen?.host && echo.host !== expected.seen.host) differences.push(`the backend saw host ${echo.host}, expected ${expected.seen.host}`)
  const seenHeader = (name: string) => (echo.headers[name] ?? []).flatMap(headerLines)
  differences.push(...headerDifferences('request header', seenHeader, expected.seen?.headers, expected.seen?.absent))
  return differences
}

function headerDifferences(what: string, linesOf: (lowerCaseName: string) => string[], expected: Record<string, string> = {}, absent: string[] = []): string[] {
  const differences: string[] = []
  for (const [name, value] of Object.entries(expected)) {
    const actual = linesOf(name.toLowerCase()).join(',')
    const wanted = headerLines(value).join(',')
    if (actual !== wanted) differences.push(`${what} ${name} is ${actual ? `"${actual}"` : 'absent'}, expected "${wanted}"`)
  }
  for (const name of absent) if (linesOf(name.toLowerCase()).length) differences.push(`${what} ${name} is present, expected absent`)
  return differences
}

/** A header's values, however Node joined or split them. */
function headerLines(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).flatMap((line) => line.split(',')).map((part) => part.trim())
}

function redirectDifferences(expected: ExpectedAnswer, response: HttpResponse, sentHost: string): string[] {
  const location = response.headers.location
  if (!location) return ['no Location']
  const target = new URL(location, `http://${sentHost}`)
  const wanted = {
    scheme: expected.redirect?.scheme ?? 'http',
    host: expected.redirect?.host ?? new URL(`http://${sentHost}`).hostname,
    path: expected.redirect?.path ?? expected.request.path,
  }
  const differences: string[] = []
  if (target.protocol !== `${wanted.scheme}:`) differences.push(`redirected to scheme ${target.protocol.slice(0, -1)}, expected ${wanted.scheme}`)
  if (target.hostname !== wanted.host) differences.push(`redirected to host ${target.hostname}, expected ${wanted.host}`)
  if (expected.redirect?.port && target.port !== expected.redirect.port)
    differences.push(`redirected to port ${target.port || '(default)'}, expected ${expected.redirect.port}`)
  if (target.pathname !== wanted.path) differences.push(`redirected to path ${target.pathname}, expected ${wanted.path}`)
  return differences
}

/**
 * A ported case's verdict: one PASSING lists has no differences; any other fails, and is either
 * reported by hapedge (`reports` on its objects) or named in UNREPORTED with what hapedge does instead.
 */
export function expectVerdict(name: string, differences: string[], reports: unknown[]): void {
  if (PASSING.has(name)) expect(differences).toEqual([])
  else {
    expect(differences, `${name} passes: add it to PASSING`).not.toEqual([])
    if (UNREPORTED.has(name)) expect(reports, `${name} is reported now: remove it from UNREPORTED`).toEqual([])
    else expect(reports, `${name} fails and hapedge says nothing of its objects`).not.toEqual([])
  }
}
