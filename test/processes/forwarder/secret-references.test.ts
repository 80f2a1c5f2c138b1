import { describe, expect, it } from 'vitest'
import { trimObject } from '../../../functions/adapters/kubernetes/kube-object.ts'
import { SecretReferences } from '../../../processes/forwarder/secret-references.ts'
import { ingress } from '../../support/objects.ts'

const naming = (name: string, ...secrets: string[]) =>
  ingress({ name, namespace: 'shop', rules: [], tls: secrets.map((secretName) => ({ hosts: [`${name}.example.com`], secretName })) })

describe('SecretReferences', () => {
  it('says a Secret came into use with its first Ingress and went out of use with its last, in the Ingress’s namespace only', () => {
    const references = new SecretReferences()
    expect(references.setIngress('Ingress/shop/a', naming('a', 'tls-1', 'tls-2'))).toEqual({ added: ['Secret/shop/tls-1', 'Secret/shop/tls-2'], removed: [] })
    expect(references.setIngress('Ingress/shop/b', naming('b', 'tls-1'))).toEqual({ added: [], removed: [] })
    expect(references.setIngress('Ingress/shop/a', naming('a', 'tls-2'))).toEqual({ added: [], removed: [] })
    expect(references.has('Secret/shop/tls-1')).toBe(true)
    expect(references.setIngress('Ingress/shop/b', undefined)).toEqual({ added: [], removed: ['Secret/shop/tls-1'] })
    expect(references.setIngress('Ingress/shop/a', naming('a'))).toEqual({ added: [], removed: ['Secret/shop/tls-2'] })
    expect(references.has('Secret/default/tls-2')).toBe(false)
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
