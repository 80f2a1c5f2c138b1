import { describe, expect, it } from 'vitest'
import { deriveDeploymentKey, deriveDeploymentKeys, MINIMUM_SECRET_LENGTH } from '../../../core/crypto/deployment-key.ts'
import { DeploymentSecretError } from '../../../core/crypto/errors.ts'

const SECRET = 'deployment-secret-for-tests-0123456789'
const OTHER = 'another-deployment-secret-abcdefghijkl'

describe('the deployment key, derived from the deployment secret', () => {
  it('is the same for the same secret, with a key id that differs between secrets and shows neither', async () => {
    const [first, again, other] = await Promise.all([deriveDeploymentKey(SECRET), deriveDeploymentKey(SECRET), deriveDeploymentKey(OTHER)])
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{11}$/)
    expect(again.id).toBe(first.id)
    expect(other.id).not.toBe(first.id)
    expect(SECRET).not.toContain(first.id)
  })

  it('wraps and unwraps only, and cannot be exported', async () => {
    const { wrappingKey } = await deriveDeploymentKey(SECRET)
    expect(wrappingKey.algorithm).toMatchObject({ name: 'AES-KW', length: 256 })
    expect(wrappingKey.extractable).toBe(false)
    expect([...wrappingKey.usages].sort()).toEqual(['unwrapKey', 'wrapKey'])
    await expect(crypto.subtle.exportKey('raw', wrappingKey)).rejects.toThrow()
  })

  it(`refuses a secret shorter than ${MINIMUM_SECRET_LENGTH} characters, or none, saying which and how long`, async () => {
    await expect(deriveDeploymentKey('x'.repeat(31))).rejects.toThrow(DeploymentSecretError)
    await expect(deriveDeploymentKey('x'.repeat(31))).rejects.toThrow('the deployment secret has 31 characters, at least 32 are needed')
    await expect(deriveDeploymentKeys({ current: '' })).rejects.toThrow('the current deployment secret is not set')
    await expect(deriveDeploymentKeys({ current: SECRET, previous: 'short' })).rejects.toThrow('the previous deployment secret has 5 characters')
    // Characters, not UTF-16 units: 16 emoji are 32 units but 16 characters.
    await expect(deriveDeploymentKey('🔑'.repeat(16))).rejects.toThrow('has 16 characters')
    await expect(deriveDeploymentKey('x'.repeat(32))).resolves.toBeDefined()
  })

  it('keeps the previous secret beside the current one, and ignores an empty or repeated previous', async () => {
    const rotating = await deriveDeploymentKeys({ current: OTHER, previous: SECRET })
    expect(rotating.current.id).toBe((await deriveDeploymentKey(OTHER)).id)
    expect(rotating.previous.map((key) => key.id)).toEqual([(await deriveDeploymentKey(SECRET)).id])
    expect((await deriveDeploymentKeys({ current: SECRET, previous: '' })).previous).toEqual([])
    expect((await deriveDeploymentKeys({ current: SECRET, previous: SECRET })).previous).toEqual([])
  })
})
