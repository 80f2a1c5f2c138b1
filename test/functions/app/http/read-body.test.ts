import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { readJson } from '../../../../functions/app/http/read-body.ts'

const request = (body: string) => new Request('http://hapedge.test/', { method: 'PUT', headers: { 'content-type': 'application/json' }, body })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('readJson', () => {
  it('awaits the pause it is given before parsing the body, between slices of the parse and before checking it: a large body waits for other clusters’ small writes', async () => {
    const log: string[] = []
    const parse = JSON.parse
    const items = Array.from({ length: 1000 }, (_, i) => i)
    const text = JSON.stringify({ items })
    vi.spyOn(JSON, 'parse').mockImplementation((parsed, reviver) => {
      // Parsed in parts (the test runner parses its own messages too): a run of parts of the body is one step of the log.
      if (text.includes(parsed) && log.at(-1) !== 'parse') log.push('parse')
      return parse(parsed, reviver)
    })
    const schema = z.object({ items: z.array(z.number()) }).refine(() => log.push('check') > 0)
    const body = await readJson(request(text), 1 << 20, schema, async () => void log.push('pause'))
    expect(body).toEqual({ items })
    // Paused first, then in the parse (1,000 elements are more steps than a slice holds), then before the check.
    expect(log.slice(0, 2)).toEqual(['pause', 'parse'])
    expect(log.slice(-2)).toEqual(['pause', 'check'])
    expect(log.slice(2, -2)).toContain('pause')
    expect(log.filter((step) => step === 'check')).toHaveLength(1)
  })

  it('still answers a body that is not JSON with a 400 that says so', async () => {
    await expect(readJson(request('{"items":'), 1024, z.object({}), async () => {})).rejects.toMatchObject({ status: 400 })
  })
})
