import { describe, expect, it } from 'vitest'
import { tlsPairProblem } from '../../core/tls/tls-pair.ts'
import ed25519Crt from '../fixtures/tls/ed25519.example.com.crt?raw'
import ed25519Key from '../fixtures/tls/ed25519.example.com.key?raw'
import p384Crt from '../fixtures/tls/p384.example.com.crt?raw'
import p384Key from '../fixtures/tls/p384.example.com.key?raw'
import rsaCrt from '../fixtures/tls/rsa.example.com.crt?raw'
import rsaKey from '../fixtures/tls/rsa.example.com.key?raw'

const check = (crt: string, key: string) => tlsPairProblem(btoa(crt), btoa(key))

/** The certificate and key check runs where the function runs: workerd's WebCrypto imports every key type it reads. */
describe('a TLS Secret’s certificate and key, checked in the Workers runtime', () => {
  it.each([
    ['RSA', rsaCrt, rsaKey],
    ['EC P-384', p384Crt, p384Key],
    ['Ed25519', ed25519Crt, ed25519Key],
  ])('accepts a matching %s pair and refuses another key', async (_, crt, key) => {
    expect(await check(crt, key)).toBeUndefined()
    const other = key === rsaKey ? p384Key : rsaKey
    expect(await check(crt, other)).toMatch(/^tls\.key holds an? .* key, but the certificate in tls\.crt is for an? .* key$/)
  })

  it('refuses a key of the same type that is not the certificate’s', async () => {
    expect(await check(p384Crt, await exportOtherP384())).toBe('tls.key does not match the certificate in tls.crt')
  })
})

/** A fresh P-384 key as PKCS#8 PEM, made by the runtime's own WebCrypto. */
async function exportOtherP384(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify'])) as CryptoKeyPair
  const der = new Uint8Array((await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer)
  return `-----BEGIN PRIVATE KEY-----\n${btoa(String.fromCharCode(...der))}\n-----END PRIVATE KEY-----\n`
}
