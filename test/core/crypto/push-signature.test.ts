import { describe, expect, it } from 'vitest'
import { agentPushKey, derivePushRoot, pushKeyBytes, signPushedHead, verifyPushedHead } from '../../../core/crypto/push-signature.ts'
import { encodeBase64url } from '../../../core/crypto/base64url.ts'
import { DeploymentSecretError } from '../../../core/crypto/errors.ts'

const SECRET = 'a-deployment-secret-of-enough-length-0123456789'
const head = { generation: 12, manifest: 'a'.repeat(64) }
// As the agent has it: given base64url in its report's answer.
const keyOf = (secret: string, cluster: string, pod: string, instance: string) =>
  pushKeyBytes(encodeBase64url(agentPushKey(derivePushRoot(secret), cluster, pod, instance)))!

describe('signed pushes', () => {
  it("verifies a head signed under an agent run's key, and no other cluster's, generation or manifest", () => {
    const key = keyOf(SECRET, 'prod', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa')
    const signature = signPushedHead(key, 'prod', head)
    expect(verifyPushedHead(key, 'prod', head, signature)).toBe(true)
    expect(verifyPushedHead(key, 'staging', head, signature)).toBe(false)
    expect(verifyPushedHead(key, 'prod', { ...head, generation: 13 }, signature)).toBe(false)
    expect(verifyPushedHead(key, 'prod', { ...head, manifest: 'b'.repeat(64) }, signature)).toBe(false)
  })

  it('gives each cluster, pod, run and deployment secret a key of its own, the same wherever it is derived', () => {
    const keys = [
      keyOf(SECRET, 'prod', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa'),
      keyOf(SECRET, 'staging', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa'),
      keyOf(SECRET, 'prod', 'haproxy-1', 'run-aaaaaaaaaaaaaaaa'),
      keyOf(SECRET, 'prod', 'haproxy-0', 'run-bbbbbbbbbbbbbbbb'),
      keyOf(`${SECRET}-rotated`, 'prod', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa'),
    ]
    const signatures = keys.map((key) => signPushedHead(key, 'prod', head))
    expect(new Set(signatures).size).toBe(keys.length)
    // A replica of the deployment derives the same key, so a push from any of them checks.
    expect(verifyPushedHead(keyOf(SECRET, 'prod', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa'), 'prod', head, signatures[0]!)).toBe(true)
    for (const other of keys.slice(1)) expect(verifyPushedHead(other, 'prod', head, signatures[0]!)).toBe(false)
  })

  it('refuses what is not a signature or a key, and a secret too short to derive keys from', () => {
    const key = keyOf(SECRET, 'prod', 'haproxy-0', 'run-aaaaaaaaaaaaaaaa')
    const signature = signPushedHead(key, 'prod', head)
    for (const bad of ['', 'not base64url!', signature.slice(0, -2), `${signature}AA`]) expect(verifyPushedHead(key, 'prod', head, bad)).toBe(false)
    expect(pushKeyBytes('c2hvcnQ')).toBeUndefined()
    expect(pushKeyBytes('!'.repeat(43))).toBeUndefined()
    expect(() => derivePushRoot('short')).toThrow(DeploymentSecretError)
  })
})
