import { describe, expect, it } from 'vitest'
import { createApp } from '../../../functions/app/app.ts'

describe('the HTTP app', () => {
  it('answers liveness on /healthz and 404 elsewhere', async () => {
    const app = createApp()
    const health = await app.request('/healthz')
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ ok: true })
    expect((await app.request('/v1/nothing')).status).toBe(404)
  })
})
