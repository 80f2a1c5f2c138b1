import { afterEach, describe, expect, it, vi } from 'vitest'
import { DeploymentSecretError, SealedValueError } from '../../../core/crypto/errors.ts'
import { Sealer } from '../../../core/crypto/sealer.ts'

const SECRET = 'deployment-secret-for-tests-0123456789'
const NEXT_SECRET = 'next-deployment-secret-abcdefghijklmn'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('Sealer: sealing for any cluster from its record', () => {
  it('refuses a missing or short secret when constructed, so a misconfigured deployment fails at start', () => {
    expect(() => new Sealer({ current: '' })).toThrow(DeploymentSecretError)
    expect(() => new Sealer({ current: SECRET, previous: 'short' })).toThrow('the previous deployment secret has 5 characters')
    expect(() => new Sealer({ current: SECRET, previous: '' })).not.toThrow()
  })

  it('seals and opens text and bytes with a cluster key it created', async () => {
    const sealer = new Sealer({ current: SECRET })
    const clusterKey = await sealer.createClusterKey()
    const sealed = await sealer.seal(clusterKey, 'bearer-token', 'cluster/prod-eu/credentials')
    expect(await sealer.open(clusterKey, sealed, 'cluster/prod-eu/credentials')).toBe('bearer-token')
    const bytes = await sealer.seal(clusterKey, Uint8Array.of(1, 2, 3), 'cluster/prod-eu/secret/web/tls')
    expect(await sealer.openBytes(clusterKey, bytes, 'cluster/prod-eu/secret/web/tls')).toEqual(Uint8Array.of(1, 2, 3))
    await expect(sealer.open(await sealer.createClusterKey(), sealed, 'cluster/prod-eu/credentials')).rejects.toThrow(SealedValueError)
  })

  it('unwraps each cluster key once, even for concurrent calls', async () => {
    const sealer = new Sealer({ current: SECRET })
    const clusterKey = await sealer.createClusterKey()
    const unwrapKey = vi.spyOn(crypto.subtle, 'unwrapKey')
    const sealed = await Promise.all(Array.from({ length: 5 }, (_, i) => sealer.seal(clusterKey, `value ${i}`, 'cluster/a/credentials')))
    for (const [i, value] of sealed.entries()) expect(await sealer.open(clusterKey, value, 'cluster/a/credentials')).toBe(`value ${i}`)
    expect(unwrapKey).toHaveBeenCalledTimes(1)
  })

  it('keeps at most maxCachedKeys unwrapped keys, dropping the least recently used', async () => {
    const sealer = new Sealer({ current: SECRET }, { maxCachedKeys: 2 })
    const [a, b, c] = await Promise.all([sealer.createClusterKey(), sealer.createClusterKey(), sealer.createClusterKey()])
    const unwrapKey = vi.spyOn(crypto.subtle, 'unwrapKey')
    for (const key of [a, b, a, c, a, b]) await sealer.seal(key!, 'x', 'cluster/a/credentials')
    // a, b unwrap; a is a hit; c drops b; a is a hit; b unwraps again.
    expect(unwrapKey).toHaveBeenCalledTimes(4)
  })

  it('does not keep a key that failed to unwrap: the failure is reported again', async () => {
    const clusterKey = await new Sealer({ current: SECRET }).createClusterKey()
    const wrong = new Sealer({ current: NEXT_SECRET })
    await expect(wrong.seal(clusterKey, 'x', 'cluster/a/credentials')).rejects.toThrow(/wrapped under deployment key/)
    await expect(wrong.seal(clusterKey, 'x', 'cluster/a/credentials')).rejects.toThrow(/wrapped under deployment key/)
  })

  it('rotates the deployment secret: old records open while both are set, and rewrap moves them to the current one', async () => {
    const before = new Sealer({ current: SECRET })
    const clusterKey = await before.createClusterKey()
    const sealed = await before.seal(clusterKey, 'bearer-token', 'cluster/a/credentials')

    const rotating = new Sealer({ current: NEXT_SECRET, previous: SECRET })
    expect(await rotating.open(clusterKey, sealed, 'cluster/a/credentials')).toBe('bearer-token')
    expect(await rotating.needsRewrap(clusterKey)).toBe(true)
    const rewrapped = await rotating.rewrap(clusterKey)
    expect(await rotating.needsRewrap(rewrapped)).toBe(false)

    const after = new Sealer({ current: NEXT_SECRET })
    expect(await after.open(rewrapped, sealed, 'cluster/a/credentials')).toBe('bearer-token')
  })
})
