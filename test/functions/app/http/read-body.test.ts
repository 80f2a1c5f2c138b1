import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { readJson } from '../../../../functions/app/http/read-body.ts'

const request = (body: string) => new Request('http://hapedge.test/', { method: 'PUT', headers: { 'content-type': 'application/json' }, body })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('readJson', () => {
  it('awaits the pause it is given before parsing the body and before checking it: a large body waits for other clusters’ small writes', async () => {
    const log: string[] = []
    const parse = JSON.parse
    const text = '{"items":[1,2,3]}'
    vi.spyOn(JSON, 'parse').mockImplementation((parsed, reviver) => {
      if (parsed === text) log.push('parse')
      return parse(parsed, reviver)
    })
    const schema = z.object({ items: z.array(z.number()) }).refine(() => log.push('check') > 0)
    const body = await readJson(request(text), 1024, schema, async () => void log.push('pause'))
    expect(body).toEqual({ items: [1, 2, 3] })
    expect(log).toEqual(['pause', 'parse', 'pause', 'check'])
  })

  it('still answers a body that is not JSON with a 400 that says so', async () => {
    await expect(readJson(request('{"items":'), 1024, z.object({}), async () => {})).rejects.toMatchObject({ status: 400 })
  })
})
