import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { app } from '../support/contracts/cluster-apps.ts'

const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  SELF.fetch(`https://hapedge.example${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('concurrent writes to one cluster in the Workers runtime', () => {
  it('answers every request, each in its own request context, and the last generation holds every write', async () => {
    const id = `cw-${Date.now().toString(36)}`
    const { token } = (await (await call('POST', '/v1/clusters', env.ADMIN_TOKEN, { id })).json()) as { token: string }
    const writes = Array.from({ length: 12 }, (_, n) => app(n + 1).map((object) => ({ type: 'ADDED', object })))
    const answers = await Promise.all(writes.map((events) => call('POST', `/v1/clusters/${id}/events`, token, { events })))
    expect(answers.map((answer) => answer.status)).toEqual(writes.map(() => 200))
    const generations = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { generation: number }).generation))
    // Group commit: fewer generations than requests, each request told the generation that holds it.
    expect(Math.max(...generations)).toBeLessThanOrEqual(writes.length)
    const routes = (await (await call('GET', `/v1/clusters/${id}/routes`, token)).json()) as unknown
    expect(JSON.stringify(routes)).toContain('app-12')
  })
})
