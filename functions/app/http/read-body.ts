import type { z } from 'zod'
import { issuesFromZod } from '../../../core/issues.ts'
import { parsingJson, type EachElement } from '../../../core/json-in-slices.ts'
import { runInSlices, type Pause } from '../../../core/slices.ts'
import { HttpError } from './http-error.ts'

/**
 * The request's JSON body, refused with 413 as soon as it passes `maxBytes` (by its
 * Content-Length, or while streaming one without), then checked against `schema`; a 400 names
 * the first field that is wrong. A large body (a resync's) passes `pause`: it is parsed in slices
 * (parsingJson), pausing between them, and the check waits for other clusters' small writes
 * first, since it holds the thread for as long as the body is large. `each` reads the elements of
 * the body's top-level arrays as they are parsed (see parsingJson): the schema checks what it answers.
 */
export async function readJson<T extends z.ZodType>(request: Request, maxBytes: number, schema: T, pause?: Pause, each?: EachElement): Promise<z.output<T>> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/(.+\+)?json\b/i.test(type)) throw new HttpError(415, `content-type must be application/json, not ${JSON.stringify(type)}`)
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) throw tooLarge(maxBytes)
  const text = await readText(request, maxBytes)
  await pause?.()
  let json: unknown
  try {
    json = pause || each ? await runInSlices(parsingJson(text, each), pause) : JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `the body is not JSON: ${(error as Error).message}`, '')
  }
  await pause?.()
  return parseWith(schema, json)
}

/** A request's query parameters checked against `schema`; a 400 names the parameter that is wrong. */
export function readQuery<T extends z.ZodType>(query: Record<string, string>, schema: T): z.output<T> {
  return parseWith(schema, query)
}

function parseWith<T extends z.ZodType>(schema: T, json: unknown): z.output<T> {
  const parsed = schema.safeParse(json)
  if (parsed.success) return parsed.data
  const [issue] = issuesFromZod(parsed.error)
  throw new HttpError(400, issue?.message ?? 'invalid body', issue?.path ?? '')
}

/** As `readJson`, for a body that may be left out (no Content-Type, or empty): then `{}` is checked, so the schema's defaults apply. */
export async function readOptionalJson<T extends z.ZodType>(request: Request, maxBytes: number, schema: T): Promise<z.output<T>> {
  if (request.headers.get('content-type') === null || request.headers.get('content-length') === '0') return parseWith(schema, {})
  return readJson(request, maxBytes, schema)
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw tooLarge(maxBytes)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) bytes.set(chunk, (offset += chunk.byteLength) - chunk.byteLength)
  return new TextDecoder().decode(bytes)
}

const tooLarge = (maxBytes: number) => new HttpError(413, `the body is larger than ${maxBytes} bytes; send smaller batches`)
