import { describe, expect, it } from 'vitest'
import { REGISTRY_PREFIX } from '../../../core/registry/registry.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { INVALID_BINDS, VALID_BINDS } from '../../support/bind-addresses.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const fields = ['httpBind', 'httpsBind'] as const

describe('a cluster’s bind addresses', () => {
  it.each(fields)(
    'are refused at registration when %s is not ADDR:PORT as HAProxy takes it (400 naming the field), and nothing is registered',
    async (field) => {
      const { call } = harness()
      for (const [bind, problem] of INVALID_BINDS) {
        const response = await call('POST', '/v1/clusters', ADMIN, { id: 'prod-eu', [field]: bind })
        expect(response.status, bind).toBe(400)
        expect(await response.json(), bind).toEqual({ error: { message: expect.stringMatching(problem), path: field } })
      }
      expect((await call('GET', '/v1/clusters/prod-eu', ADMIN)).status).toBe(404)
    },
  )

  it.each(fields)(
    'are refused by PATCH when %s is not ADDR:PORT as HAProxy takes it (400 naming the field), leaving the record and the generation as they were',
    async (field) => {
      const { call, register, events } = harness()
      const token = await register('prod-eu')
      expect((await events('prod-eu', token, app(1).map(put))).status).toBe(200)
      const before = await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()
      const head = async () => (await call('GET', '/v1/clusters/prod-eu/head', token)).json()
      const headBefore = await head()
      for (const [bind, problem] of INVALID_BINDS) {
        const response = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { [field]: bind })
        expect(response.status, bind).toBe(400)
        expect(await response.json(), bind).toEqual({ error: { message: expect.stringMatching(problem), path: field } })
      }
      expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toEqual(before)
      expect(await head()).toEqual(headBefore)
    },
  )

  it('are accepted at registration and by PATCH in every valid form, and rendered as sent', async () => {
    const { call, register } = harness()
    for (const [index, bind] of VALID_BINDS.entries()) {
      await register(`c${index}`, { httpBind: bind, httpsBind: bind })
      const patched = await call('PATCH', `/v1/clusters/c${index}`, ADMIN, { httpsBind: bind, httpBind: bind })
      expect(patched.status, bind).toBe(200)
      expect(await patched.json(), bind).toMatchObject({ httpBind: bind, httpsBind: bind })
    }
  })

  it('stored under an older, looser check still open, so a PATCH can put a valid address in', async () => {
    const { call, register, store } = harness()
    await register('prod-eu')
    const stored = await store.get(`${REGISTRY_PREFIX}prod-eu`)
    const record = JSON.parse(new TextDecoder().decode(stored!.body))
    await store.put(`${REGISTRY_PREFIX}prod-eu`, `${JSON.stringify({ ...record, httpBind: '999.999.999.999:80' })}\n`)

    expect(await (await call('GET', '/v1/clusters', ADMIN)).json()).toMatchObject({ clusters: [{ id: 'prod-eu', httpBind: '999.999.999.999:80' }] })
    const patched = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { httpBind: '0.0.0.0:8080' })
    expect(patched.status).toBe(200)
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ httpBind: '0.0.0.0:8080' })
  })
  it('take the Gateway ports of their own by PATCH (the frontend changes: a reload), and refuse ports or binds the HTTP and HTTPS binds have', async () => {
    const { call, register, events } = harness()
    const token = await register('prod-eu')
    expect((await events('prod-eu', token, app(1).map(put))).status).toBe(200)
    const gatewayPorts = [{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' }]
    const patched = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { gatewayPorts })
    expect(patched.status).toBe(200)
    expect(await patched.json()).toMatchObject({ gatewayPorts, committed: true, reload: true })
    for (const [clashing, problem] of [
      [{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:80' }, "bind 0.0.0.0:80 is on the HTTP or HTTPS bind's port"],
      [{ port: 8443, protocol: 'HTTPS', bind: '0.0.0.0:8443' }, "port 8443 is the HTTP or HTTPS bind's, whose listeners it already serves"],
    ] as const) {
      const response = await call('POST', '/v1/clusters', ADMIN, { id: 'prod-us', httpsBind: '0.0.0.0:8443', gatewayPorts: [clashing] })
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: { message: problem, path: 'gatewayPorts' } })
    }
    const refused = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { httpBind: '0.0.0.0:8080' })
    expect(refused.status).toBe(400)
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ httpBind: '0.0.0.0:80', gatewayPorts })
  })
})
