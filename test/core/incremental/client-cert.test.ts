import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { added, app, deleted, modified } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { authSecret, ingress, tlsSecret } from '../../support/objects.ts'
import { syntheticCertificatePem } from '../../support/synthetic-certificates.ts'

const shop = fixtureCertificate('shop.example.com')
const apps = fixtureCertificate('apps.example.com')

/** Two hosts of one certificate: `a` asks for client certificates as `annotations` say, `b` never does. */
const sharing = (annotations: Record<string, string>) => [
  ingress({
    name: 'a',
    annotations,
    rules: [{ host: 'a.example.com', paths: [{ service: 'app-1' }] }],
    tls: [{ hosts: ['a.example.com'], secretName: 'both' }],
  }),
  ingress({ name: 'b', rules: [{ host: 'b.example.com', paths: [{ service: 'app-1' }] }], tls: [{ hosts: ['b.example.com'], secretName: 'both' }] }),
]
const MTLS = { 'nginx.ingress.kubernetes.io/auth-tls-secret': 'clients' }

describe('client certificates, change by change', () => {
  it('gives the crt-list lines, certificates and CA bundles a full rebuild gives, as the CA Secret and the annotations come, change and go', () => {
    const base = [...app(1), tlsSecret('both', shop.certPem, shop.keyPem)]
    const clients = (pem: string) => authSecret('clients', { 'ca.crt': pem })
    const steps: { events: ReturnType<typeof added>[]; objects: unknown[] }[] = [
      { events: [...base, ...sharing(MTLS), clients(shop.certPem)].map(added), objects: [...base, ...sharing(MTLS), clients(shop.certPem)] },
      // The CA bundle changes: its file is rewritten.
      { events: [modified(clients(apps.certPem))], objects: [...base, ...sharing(MTLS), clients(apps.certPem)] },
      // The CA Secret goes: `a` is refused, its line and bundle go.
      { events: [deleted(clients(apps.certPem))], objects: [...base, ...sharing(MTLS)] },
      { events: [added(clients(shop.certPem))], objects: [...base, ...sharing(MTLS), clients(shop.certPem)] },
      // `a` stops asking: its line goes, both hosts share the plain one.
      { events: [modified(sharing({})[0])], objects: [...base, ...sharing({}), clients(shop.certPem)] },
    ]
    const cluster = new LiveCluster()
    const seen = new Set<string>()
    for (const { events, objects } of steps) {
      cluster.apply(events)
      const files = cluster.files()
      expect([...files].sort()).toEqual([...fullRebuild(objects).files].sort())
      seen.add(files.get(FILES.crtList) ?? '')
    }
    // The steps do reach what they are for: a line with the CA, and the plain line alone again.
    expect([...seen].some((list) => list.includes('[ca-file client-ca/default_clients/default_both.pem verify optional] a.example.com'))).toBe(true)
    expect(cluster.files().get(FILES.crtList)).toBe('tls/default_both.pem a.example.com b.example.com\n')
  })

  it('applies a change of auth-tls-verify-depth as an edit of the client-cert map, giving the issuers a full rebuild gives (0 reads as 1)', () => {
    const root = syntheticCertificatePem([['2.5.4.3', 'root']])
    const issuing = syntheticCertificatePem([['2.5.4.3', 'issuing']], [['2.5.4.3', 'root']])
    const team = syntheticCertificatePem([['2.5.4.3', 'team']], [['2.5.4.3', 'issuing']])
    const base = [...app(1), tlsSecret('both', shop.certPem, shop.keyPem), authSecret('clients', { 'ca.crt': `${root}${issuing}${team}` })]
    const depth = (value?: string) => sharing(value === undefined ? MTLS : { ...MTLS, 'nginx.ingress.kubernetes.io/auth-tls-verify-depth': value })[0]!
    const cluster = new LiveCluster()
    cluster.apply([...base, depth(), sharing({})[1]].map(added))
    const issuers = new Set<number>()
    for (const value of ['2', '0', '1', undefined]) {
      const { plan } = cluster.apply([modified(depth(value))])
      const files = cluster.files()
      expect(files.get(FILES.clientCertMap)).toBe(fullRebuild([...base, depth(value), sharing({})[1]]).files.get(FILES.clientCertMap))
      issuers.add(
        files
          .get(FILES.clientCertMap)!
          .split('\n')
          .filter((line) => line.endsWith(' issuer')).length,
      )
      if (value !== '1' && value !== undefined)
        expect(plan).toMatchObject({ reload: false, maps: expect.arrayContaining([expect.objectContaining({ map: FILES.clientCertMap })]) })
    }
    // Depth 2 allows the team CA too; 0, 1 and unset allow the root and the issuing CA.
    expect([...issuers].sort()).toEqual([2, 3])
  })
})
