import { describe, expect, it } from 'vitest'
import { trimObject } from '../../../functions/adapters/kubernetes/kube-object.ts'
import { ObjectReferences, referencedObjects } from '../../../processes/forwarder/object-references.ts'
import { watchedBy, watchedResources } from '../../../processes/forwarder/watched-resources.ts'
import { ingress } from '../../support/objects.ts'

const naming = (name: string, ...secrets: string[]) =>
  ingress({ name, namespace: 'shop', rules: [], tls: secrets.map((secretName) => ({ hosts: [`${name}.example.com`], secretName })) })

describe('ObjectReferences', () => {
  it('says a Secret came into use with its first Ingress and went out of use with its last, in the Ingress’s namespace only', () => {
    const references = new ObjectReferences()
    expect(references.setIngress('Ingress/shop/a', naming('a', 'tls-1', 'tls-2'))).toEqual({ added: ['Secret/shop/tls-1', 'Secret/shop/tls-2'], removed: [] })
    expect(references.setIngress('Ingress/shop/b', naming('b', 'tls-1'))).toEqual({ added: [], removed: [] })
    expect(references.setIngress('Ingress/shop/a', naming('a', 'tls-2'))).toEqual({ added: [], removed: [] })
    expect(references.has('Secret/shop/tls-1')).toBe(true)
    expect(references.setIngress('Ingress/shop/b', undefined)).toEqual({ added: [], removed: ['Secret/shop/tls-1'] })
    expect(references.setIngress('Ingress/shop/a', naming('a'))).toEqual({ added: [], removed: ['Secret/shop/tls-2'] })
    expect(references.has('Secret/default/tls-2')).toBe(false)
  })
})

describe('ObjectReferences: basic authentication, backend CAs, custom-headers', () => {
  const guarded = (name: string, annotations: Record<string, string>) => ingress({ name, namespace: 'shop', annotations, rules: [] })

  it.each([
    ['ingress-nginx', { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users' }, 'Secret/shop/users'],
    ['ingress-nginx, namespace/name', { 'nginx.ingress.kubernetes.io/auth-secret': 'staff/users' }, 'Secret/staff/users'],
    ['haproxytech', { 'haproxy.org/auth-type': 'basic-auth', 'haproxy.org/auth-secret': 'users' }, 'Secret/shop/users'],
    ['haproxy-ingress', { 'haproxy-ingress.github.io/auth-secret': 'users' }, 'Secret/shop/users'],
    ['NGINX Inc.', { 'nginx.org/basic-auth-secret': 'users' }, 'Secret/shop/users'],
  ])('sends the Secret of users a %s annotation names while the Ingress names it, and withdraws it after', (_, annotations, secret) => {
    const references = new ObjectReferences()
    expect(references.setIngress('Ingress/shop/a', guarded('a', annotations))).toEqual({ added: [secret], removed: [] })
    expect(references.has(secret)).toBe(true)
    expect(references.setIngress('Ingress/shop/a', guarded('a', {}))).toEqual({ added: [], removed: [secret] })
    expect(references.has(secret)).toBe(false)
  })

  it.each([
    ['ingress-nginx proxy-ssl-secret', { 'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'backend-ca' }, 'Secret/shop/backend-ca'],
    ['haproxy-ingress secure-verify-ca-secret', { 'haproxy-ingress.github.io/secure-verify-ca-secret': 'infra/ca' }, 'Secret/infra/ca'],
    ['haproxytech server-ca', { 'haproxy.org/server-ca': 'backend-ca' }, 'Secret/shop/backend-ca'],
  ])('sends the CA Secret a %s annotation names while the Ingress names it, and withdraws it after', (_, annotations, secret) => {
    const references = new ObjectReferences()
    expect(references.setIngress('Ingress/shop/a', guarded('a', annotations))).toEqual({ added: [secret], removed: [] })
    expect(references.setIngress('Ingress/shop/a', guarded('a', {}))).toEqual({ added: [], removed: [secret] })
  })

  it('counts a Secret named for TLS by one Ingress and for users by another once, in use until both let go', () => {
    const references = new ObjectReferences()
    expect(references.setIngress('Ingress/shop/a', naming('a', 'both')).added).toEqual(['Secret/shop/both'])
    expect(references.setIngress('Ingress/shop/b', guarded('b', { 'nginx.ingress.kubernetes.io/auth-secret': 'both' })).added).toEqual([])
    expect(references.setIngress('Ingress/shop/a', undefined).removed).toEqual([])
    expect(references.setIngress('Ingress/shop/b', undefined).removed).toEqual(['Secret/shop/both'])
  })

  it.each([
    ['ingress-nginx', { 'nginx.ingress.kubernetes.io/custom-headers': 'security-headers' }],
    ['ingress-nginx, its own namespace named', { 'nginx.ingress.kubernetes.io/custom-headers': 'shop/security-headers' }],
    ['hapedge.io', { 'hapedge.io/custom-headers': 'security-headers' }],
  ])('names the ConfigMap a %s custom-headers names while the Ingress names it', (_, annotations) => {
    const references = new ObjectReferences()
    expect(references.setIngress('Ingress/shop/a', guarded('a', annotations))).toEqual({ added: ['ConfigMap/shop/security-headers'], removed: [] })
    expect(references.setIngress('Ingress/shop/a', guarded('a', {}))).toEqual({ added: [], removed: ['ConfigMap/shop/security-headers'] })
  })

  it('never names another namespace’s ConfigMap (another tenant’s), so the forwarder never sends it', () => {
    expect(referencedObjects(guarded('a', { 'nginx.ingress.kubernetes.io/custom-headers': 'other/security-headers' }))).toEqual(new Set())
  })

  it('watches each Secret type hapedge reads, and a list of one type replaces that type only', () => {
    const secrets = watchedResources().filter((resource) => resource.kind === 'Secret')
    expect(secrets.map((resource) => resource.fieldSelector)).toEqual(['type=kubernetes.io/tls', 'type=Opaque', 'type=nginx.org/htpasswd'])
    const [tls, opaque] = secrets
    expect(watchedBy(opaque!, { kind: 'Secret', type: 'Opaque' })).toBe(true)
    expect(watchedBy(opaque!, { kind: 'Secret', type: 'kubernetes.io/tls' })).toBe(false)
    expect(watchedBy(tls!, { kind: 'Secret', type: 'kubernetes.io/tls' })).toBe(true)
  })
})

describe('trimObject', () => {
  it('puts back the apiVersion and kind a LIST leaves off, and drops managedFields and kubectl’s last-applied copy only', () => {
    const listed = {
      metadata: {
        name: 'web',
        namespace: 'shop',
        managedFields: [{ manager: 'kubectl' }],
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{…}', 'hapedge.io/ssl-redirect': 'false' },
      },
      spec: { ports: [] },
    }
    expect(trimObject(listed, 'v1', 'Service')).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'shop', annotations: { 'hapedge.io/ssl-redirect': 'false' } },
      spec: { ports: [] },
    })
  })
})
