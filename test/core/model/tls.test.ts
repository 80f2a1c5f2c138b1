import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { tlsSecretProblems } from '../../../core/kube/tls-secret-check.ts'
import { FILES } from '../../../core/render/files.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { configMap, ingress, tlsSecret } from '../../support/objects.ts'

const shop = fixtureCertificate('shop.example.com')
const shopSecret = tlsSecret('shop-tls', shop.certPem, shop.keyPem)
const tlsIngress = (name: string, secretName: string, extra: { createdAt?: string; annotations?: Record<string, string> } = {}) =>
  ingress({ name, ...extra, tls: [{ hosts: ['shop.example.com'], secretName }], rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }] })

describe('TLS', () => {
  it('serves the Secret for its hosts by SNI and redirects plain HTTP to HTTPS by default', () => {
    const { model, files } = fullRebuild([tlsIngress('shop', 'shop-tls'), shopSecret])
    expect(model.rejections).toEqual([])
    expect(model.hosts.get('shop.example.com')).toMatchObject({ tlsSecret: 'default/shop-tls', redirectToHttps: true })
    expect(files.get(FILES.crtList)).toBe('tls/default_shop-tls.pem shop.example.com\n')
    expect(files.get(FILES.redirectMap)).toBe('shop.example.com 308\n')
    const pem = files.get('tls/default_shop-tls.pem')!
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/)
    expect(pem).not.toMatch(/\n\n/)
  })

  it('turns the redirect off by annotation or by the ConfigMap', () => {
    const byAnnotation = fullRebuild([tlsIngress('shop', 'shop-tls', { annotations: { 'hapedge.io/ssl-redirect': 'false' } }), shopSecret])
    expect(byAnnotation.files.get(FILES.redirectMap)).toBe('')
    const byConfig = fullRebuild([tlsIngress('shop', 'shop-tls'), shopSecret, configMap({ 'ssl-redirect': 'false' })])
    expect(byConfig.files.get(FILES.redirectMap)).toBe('')
  })

  it('rejects the TLS entry, not the Ingress, when its Secret is missing or invalid, and leaves HTTPS out', () => {
    const garbage = {
      ...shopSecret,
      metadata: { name: 'bad-tls', namespace: 'default' },
      data: { 'tls.crt': btoa('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), 'tls.key': btoa(shop.keyPem) },
    }
    for (const [secretName, objects, reason, secretReason] of [
      ['missing', [], 'spec.tls[0]: Secret default/missing does not exist (or is not of type kubernetes.io/tls)', undefined],
      [
        'bad-tls',
        [garbage],
        'spec.tls[0]: Secret default/bad-tls: tls.crt: a CERTIFICATE block is not valid DER',
        'tls.crt: a CERTIFICATE block is not valid DER',
      ],
      [
        'shop-tls',
        [{ ...shopSecret, data: { 'tls.crt': 'not base64!', 'tls.key': 'x' } }],
        expect.stringContaining('Secret default/shop-tls is invalid: data["tls.crt"]: must be base64'),
        expect.stringMatching(/^data\["tls.crt"\]: must be base64/),
      ],
    ] as const) {
      const { model, files } = fullRebuild([tlsIngress('shop', secretName), ...objects])
      // A Secret that exists is told what is wrong with it too; a missing one has no one to tell.
      const secretRejection = secretReason === undefined ? [] : [{ object: `Secret default/${secretName}`, reason: secretReason }]
      expect(model.rejections).toEqual([{ object: 'Ingress default/shop', reason }, ...secretRejection])
      expect(model.hosts.get('shop.example.com')!.routes).toHaveLength(1)
      expect(files.has(FILES.crtList)).toBe(false)
      expect(files.get(FILES.frontend)).not.toContain(' ssl ')
    }
  })

  it.each([
    [
      'a key that is not the certificate’s',
      tlsSecret('bad-tls', shop.certPem, fixtureCertificate('apps.example.com').keyPem),
      'tls.key does not match the certificate in tls.crt',
    ],
    [
      'a DER stub as its certificate',
      tlsSecret('bad-tls', '-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n', shop.keyPem),
      expect.stringMatching(/^tls\.crt: CERTIFICATE block 1 is not an X\.509 certificate \(a Certificate is a SEQUENCE of 3 elements/),
    ],
  ])('reads a Secret with %s as invalid, as a write does, and serves its hosts without it', async (_, secret, reason) => {
    const apps = fixtureCertificate('apps.example.com')
    const appsIngress = ingress({
      name: 'apps',
      tls: [{ hosts: ['apps.example.com'], secretName: 'apps-tls' }],
      rules: [{ host: 'apps.example.com', paths: [{ service: 'web' }] }],
    })
    const objects = [tlsIngress('shop', 'bad-tls'), secret, appsIngress, tlsSecret('apps-tls', apps.certPem, apps.keyPem)]
    const { model, files } = fullRebuild(objects, {}, await tlsSecretProblems(objects))
    expect(model.rejections).toEqual([
      { object: 'Ingress default/shop', reason: `spec.tls[0]: Secret default/bad-tls is invalid: ${model.rejections[1]?.reason}` },
      { object: 'Secret default/bad-tls', reason },
    ])
    // Its host is served over plain HTTP, as with a missing Secret; the other Ingress's certificate is served.
    expect(model.hosts.get('shop.example.com')).toMatchObject({ routes: [expect.anything()], redirectToHttps: false })
    expect(model.hosts.get('shop.example.com')!.tlsSecret).toBeUndefined()
    expect(files.get(FILES.crtList)).toBe('tls/default_apps-tls.pem apps.example.com\n')
  })

  it('gives a host the certificate of the oldest Ingress and reports a different one', () => {
    const apps = fixtureCertificate('apps.example.com')
    const { model } = fullRebuild([
      tlsIngress('new', 'other-tls', { createdAt: '2025-01-01T00:00:00Z' }),
      tlsIngress('old', 'shop-tls', { createdAt: '2020-01-01T00:00:00Z' }),
      shopSecret,
      tlsSecret('other-tls', apps.certPem, apps.keyPem),
    ])
    expect(model.hosts.get('shop.example.com')!.tlsSecret).toBe('default/shop-tls')
    expect(model.rejections).toContainEqual({
      object: 'Ingress default/new',
      reason: 'spec.tls[0]: host "shop.example.com" already uses Secret default/shop-tls from Ingress default/old',
    })
  })

  it('warns of an unknown hapedge.io annotation and an unreadable value, as of any prefix, and serves the Ingress without them', () => {
    const { model } = fullRebuild([
      tlsIngress('typo', 'shop-tls', { annotations: { 'hapedge.io/ssl-redirekt': 'false' } }),
      ingress({
        name: 'value',
        annotations: { 'hapedge.io/ssl-redirect': 'no\nbackend x' },
        rules: [{ host: 'value.example.com', paths: [{ service: 'web' }] }],
      }),
      shopSecret,
    ])
    expect(model.rejections).toEqual([])
    expect(model.warnings).toEqual([
      { object: 'Ingress default/typo', annotation: 'hapedge.io/ssl-redirekt', reason: 'not a hapedge annotation' },
      {
        object: 'Ingress default/value',
        annotation: 'hapedge.io/ssl-redirect',
        reason: 'metadata.annotations["hapedge.io/ssl-redirect"]: must be "true" or "false"; ignored',
      },
    ])
    // The unreadable value is ignored: the settings' redirect holds, and nothing of the value reaches a file.
    expect(model.hosts.get('shop.example.com')!.redirectToHttps).toBe(true)
    expect([...model.hosts.keys()].sort()).toEqual(['shop.example.com', 'value.example.com'])
  })
})
