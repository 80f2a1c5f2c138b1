import { describe, expect, it } from 'vitest'
import { decodeBase64url, encodeBase64url } from '../../../core/crypto/base64url.ts'
import { createClusterKey, isWrappedClusterKey, needsRewrap, rewrapClusterKey, unwrapClusterKey, wrapClusterKey } from '../../../core/crypto/cluster-key.ts'
import { deriveDeploymentKeys } from '../../../core/crypto/deployment-key.ts'
import { ClusterKeyError } from '../../../core/crypto/errors.ts'
import { open, seal } from '../../../core/crypto/seal.ts'
import { rejection } from '../../support/rejection.ts'

const SECRET = 'deployment-secret-for-tests-0123456789'
const NEXT_SECRET = 'next-deployment-secret-abcdefghijklmn'

const failure = (promise: Promise<unknown>) => rejection(promise, ClusterKeyError)

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) continue outer
    return true
  }
  return false
}

describe('a cluster key, wrapped by the deployment key', () => {
  it('is stored as hpk1.<deployment key id>.<40 bytes>, and unwraps to a key that seals but cannot be exported', async () => {
    const keys = await deriveDeploymentKeys({ current: SECRET })
    const wrapped = await createClusterKey(keys)
    expect(wrapped).toMatch(new RegExp(`^hpk1\\.${keys.current.id}\\.[A-Za-z0-9_-]{54}$`))
    expect(isWrappedClusterKey(wrapped)).toBe(true)
    const key = await unwrapClusterKey(keys, wrapped)
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 })
    expect(key.extractable).toBe(false)
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow()
    expect(await open(key, await seal(key, 'token', 'cluster/a/credentials'), 'cluster/a/credentials')).toBe('token')
  })

  it('gives every cluster its own key: one cluster key does not open what another sealed', async () => {
    const keys = await deriveDeploymentKeys({ current: SECRET })
    const [first, second] = await Promise.all([createClusterKey(keys), createClusterKey(keys)])
    expect(first).not.toBe(second)
    const sealed = await seal(await unwrapClusterKey(keys, first), 'token', 'cluster/a/credentials')
    await expect(open(await unwrapClusterKey(keys, second), sealed, 'cluster/a/credentials')).rejects.toThrow(/wrong key/)
  })

  it('does not contain the raw key bytes, nor any 4-byte run of them', async () => {
    const keys = await deriveDeploymentKeys({ current: SECRET })
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt'])
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key))
    const wrapped = await wrapClusterKey(keys.current, key)
    const wrappedBytes = decodeBase64url(wrapped.split('.')[2]!)!
    for (let start = 0; start + 4 <= raw.length; start++) expect(contains(wrappedBytes, raw.subarray(start, start + 4))).toBe(false)
    expect(wrapped).not.toContain(encodeBase64url(raw).slice(0, 8))
  })

  it('does not unwrap under another deployment secret, and says which secret it needs', async () => {
    const wrapped = await createClusterKey(await deriveDeploymentKeys({ current: SECRET }))
    const wrong = await deriveDeploymentKeys({ current: NEXT_SECRET })
    const error = await failure(unwrapClusterKey(wrong, wrapped))
    expect(error.failure).toBe('unknown-deployment-key')
    expect(error.message).toContain(`wrapped under deployment key ${wrapped.split('.')[1]}`)
    expect(error.message).toContain(`configured secrets have ids ${wrong.current.id}`)
  })

  it('refuses an altered or malformed wrapped key', async () => {
    const keys = await deriveDeploymentKeys({ current: SECRET })
    const wrapped = await createClusterKey(keys)
    const bytes = decodeBase64url(wrapped.split('.')[2]!)!
    bytes[0]! ^= 1
    const altered = `hpk1.${keys.current.id}.${encodeBase64url(bytes)}`
    expect((await failure(unwrapClusterKey(keys, altered))).failure).toBe('unwrap')
    for (const malformed of ['', wrapped.slice(0, -1), wrapped.replace('hpk1', 'hpk2'), `${wrapped}.x`, wrapped.replace(/\.[^.]+\./, '..')]) {
      expect((await failure(unwrapClusterKey(keys, malformed))).failure).toBe('format')
      expect(isWrappedClusterKey(malformed)).toBe(false)
    }
  })

  it('rotates: a key wrapped under the previous secret unwraps while both are configured, and rewraps under the current one', async () => {
    const before = await deriveDeploymentKeys({ current: SECRET })
    const wrapped = await createClusterKey(before)
    const sealed = await seal(await unwrapClusterKey(before, wrapped), 'token', 'cluster/a/credentials')

    const rotating = await deriveDeploymentKeys({ current: NEXT_SECRET, previous: SECRET })
    expect(await open(await unwrapClusterKey(rotating, wrapped), sealed, 'cluster/a/credentials')).toBe('token')
    expect(needsRewrap(rotating, wrapped)).toBe(true)
    const rewrapped = await rewrapClusterKey(rotating, wrapped)
    expect(rewrapped.split('.')[1]).toBe(rotating.current.id)
    expect(needsRewrap(rotating, rewrapped)).toBe(false)
    expect(await rewrapClusterKey(rotating, rewrapped)).toBe(rewrapped)

    const after = await deriveDeploymentKeys({ current: NEXT_SECRET })
    expect(await open(await unwrapClusterKey(after, rewrapped), sealed, 'cluster/a/credentials')).toBe('token')
    expect((await failure(unwrapClusterKey(after, wrapped))).failure).toBe('unknown-deployment-key')
    // Rewrapping hands out no exportable key.
    expect((await unwrapClusterKey(after, rewrapped)).extractable).toBe(false)
  })
})
