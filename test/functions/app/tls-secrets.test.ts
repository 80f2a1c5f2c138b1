import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { FILES } from '../../../core/render/files.ts'
import { coldContext } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { ingress, service, tlsSecret } from '../../support/objects.ts'
import { harness } from './app-harness.ts'

const shop = fixtureCertificate('shop.example.com')
const mismatched = tlsSecret('shop-tls', shop.certPem, fixtureCertificate('apps.example.com').keyPem)
const shopIngress = ingress({
  name: 'shop',
  tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
  rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }],
})

describe('TLS Secrets a write carries', () => {
  it('are judged again by a resync, so a Secret stored before the check is rejected at the next one', async () => {
    const server = harness()
    const token = await server.register('prod')
    const objects = [service('web'), shopIngress, mismatched]
    // As a cluster stored it before writes checked certificates against their keys.
    await commitEvents(
      { store: server.store, cluster: 'prod', options: {}, context: coldContext() },
      objects.map((object) => ({ type: 'MODIFIED', object })),
    )
    const files = async () =>
      ((await (await server.call('GET', '/v1/clusters/prod/status', token)).json()) as { files: { path: string }[] }).files.map((file) => file.path)
    expect(await files()).toContain(FILES.crtList)

    const response = await server.call('PUT', '/v1/clusters/prod/objects', token, { apiVersion: 'v1', kind: 'List', items: objects })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      committed: true,
      rejected: [
        { object: 'Ingress default/shop', reason: 'spec.tls[0]: Secret default/shop-tls is invalid: tls.key does not match the certificate in tls.crt' },
        { object: 'Secret default/shop-tls', reason: 'tls.key does not match the certificate in tls.crt' },
      ],
    })
    expect(await files()).not.toContain(FILES.crtList)
  })
})
