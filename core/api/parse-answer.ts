import type { z } from 'zod'
import { describeIssue, issuesFromZod } from '../issues.ts'

/**
 * An answer of the HTTP API checked against its schema, for clients: a server of another
 * version fails here, naming the field, rather than later where the field is used.
 */
export function parseAnswer<Schema extends z.ZodType>(schema: Schema, value: unknown, what: string): z.infer<Schema> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const [first] = issuesFromZod(parsed.error)
  throw new Error(`${what} is not what this version reads: ${first ? describeIssue(first) : 'invalid'}`)
}

/** The body of a response as JSON, or an error that says which answer was not JSON. */
export async function jsonAnswer(response: Response, what: string): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`${what} is not JSON: ${text.slice(0, 200)}`)
  }
}
