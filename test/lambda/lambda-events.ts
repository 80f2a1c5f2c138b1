import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { LambdaEvent } from 'hono/aws-lambda'
import { expect } from 'vitest'

/** An API Gateway HTTP API (payload format 2.0) or function URL event: the two share one shape. */
export type HttpEvent = Extract<LambdaEvent, { rawPath: string }>

/** What a handler answers, as API Gateway and function URLs read it. */
export interface LambdaResult {
  statusCode: number
  headers?: Record<string, string | string[]>
  body: string
  isBase64Encoded: boolean
}

/** The envelopes in `events/`, each shaped as AWS documents it: a GET of /healthz with nothing else set. */
export const envelopes = {
  'API Gateway HTTP API (payload 2.0)': readEnvelope('http-api-v2.json'),
  'Lambda function URL': readEnvelope('function-url.json'),
}

function readEnvelope(name: string): HttpEvent {
  return JSON.parse(readFileSync(new URL(`./events/${name}`, import.meta.url), 'utf8')) as HttpEvent
}

export interface Call {
  method: string
  /** The path and query, as the client asked for it. */
  path: string
  token?: string
  /** A JSON body: a value to serialise, or text sent as it is. */
  json?: unknown
  /** Send the body base64-encoded with `isBase64Encoded: true`, as function URLs do for some content types. */
  base64?: boolean
}

/** `envelope` with this call's method, path, headers and body, as AWS would fill them in. */
export function invocation(envelope: HttpEvent, call: Call): HttpEvent {
  const event = structuredClone(envelope)
  const [path = '/', query = ''] = call.path.split('?')
  event.rawPath = path
  event.rawQueryString = query
  event.requestContext.http.method = call.method
  event.requestContext.http.path = path
  event.requestContext.requestId = randomUUID()
  event.requestContext.timeEpoch = Date.now()
  const headers: Record<string, string | undefined> = { ...event.headers, 'content-length': undefined }
  if (call.token) headers.authorization = `Bearer ${call.token}`
  if (call.json !== undefined) {
    const bytes = Buffer.from(typeof call.json === 'string' ? call.json : JSON.stringify(call.json))
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(bytes.length)
    event.body = call.base64 ? bytes.toString('base64') : bytes.toString('utf8')
    event.isBase64Encoded = call.base64 === true
  }
  event.headers = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined))
  return event
}

/** A JSON answer's status and parsed body, after checking that it came back as text. */
export function jsonOf(result: LambdaResult): { status: number; body: unknown } {
  expect(result.isBase64Encoded).toBe(false)
  expect(result.headers?.['content-type']).toMatch(/^application\/json/)
  return { status: result.statusCode, body: JSON.parse(result.body) }
}
