import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { tlsPairProblem } from '../../../core/tls/tls-pair.ts'
import { base64, pairOf, pemBlock, reencoded } from './tls-fixtures.ts'

const problem = (certPem: string, keyPem: string) => tlsPairProblem(base64(certPem), base64(keyPem))
const rsa = pairOf('rsa.example.com')
const p256 = pairOf('shop.example.com')
const p384 = pairOf('p384.example.com')
const ed25519 = pairOf('ed25519.example.com')

describe('a TLS Secret’s certificate and key', () => {
  it.each([
    ['RSA, PKCS#8', rsa.certPem, rsa.keyPem],
    ['RSA, PKCS#1 (RSA PRIVATE KEY)', rsa.certPem, reencoded(rsa.keyPem, 'pkcs1')],
    ['EC P-256, PKCS#8', p256.certPem, p256.keyPem],
    ['EC P-256, SEC1 (EC PRIVATE KEY)', p256.certPem, reencoded(p256.keyPem, 'sec1')],
    ['EC P-384, SEC1', p384.certPem, reencoded(p384.keyPem, 'sec1')],
    ['Ed25519', ed25519.certPem, ed25519.keyPem],
    ['a chain: the leaf, then another certificate', rsa.certPem + p256.certPem, rsa.keyPem],
  ])('are accepted when the key is the certificate’s: %s', async (_, certPem, keyPem) => {
    expect(await problem(certPem, keyPem)).toBeUndefined()
  })

  it.each([
    ['EC P-256', p256.certPem, pairOf('apps.example.com').keyPem],
    ['EC P-384 in SEC1', p384.certPem, generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'sec1', format: 'pem' }) as string],
    ['RSA in PKCS#1', rsa.certPem, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string],
    ['Ed25519', ed25519.certPem, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string],
  ])('are refused when the key is another of the same type: %s', async (_, certPem, keyPem) => {
    expect(await problem(certPem, keyPem)).toBe('tls.key does not match the certificate in tls.crt')
  })

  it('are refused when the key is of another type than the certificate’s, the first certificate of a chain being the one', async () => {
    expect(await problem(rsa.certPem, p384.keyPem)).toBe('tls.key holds an EC P-384 key, but the certificate in tls.crt is for an RSA key')
    expect(await problem(p256.certPem + rsa.certPem, rsa.keyPem)).toBe('tls.key holds an RSA key, but the certificate in tls.crt is for an EC P-256 key')
  })

  it('are refused when the certificate is a DER stub (30 03 02 01 00) or garbage, saying so', async () => {
    expect(await problem(pemBlock('CERTIFICATE', Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x00)), p256.keyPem)).toBe(
      'tls.crt: CERTIFICATE block 1 is not an X.509 certificate (a Certificate is a SEQUENCE of 3 elements (tbsCertificate, signatureAlgorithm, signature), this one holds 1)',
    )
    expect(await problem(p256.certPem + pemBlock('CERTIFICATE', Uint8Array.of(0x30, 0x00)), p256.keyPem)).toMatch(
      /^tls\.crt: CERTIFICATE block 2 is not an X\.509 certificate/,
    )
    expect(await problem('not a certificate', p256.keyPem)).toBe('tls.crt holds no PEM block')
    expect(await problem(p256.certPem, pemBlock('PRIVATE KEY', Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x00)))).toMatch(
      /^tls\.key: the PRIVATE KEY cannot be read \(/,
    )
  })

  it('are refused when the key is well formed but its numbers are not a key', async () => {
    // A P-256 PKCS#8 whose private scalar is all ones: larger than the curve's order.
    const der = Buffer.from(p256.keyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64')
    const scalar = der.indexOf(Buffer.from([0x04, 0x20]), 30) + 2
    der.fill(0xff, scalar, scalar + 32)
    expect(await problem(p256.certPem, pemBlock('PRIVATE KEY', der))).toMatch(/^tls\.key: the private key cannot be read \(.+\)$/)
  })

  it('are refused when the key type is not supported, naming it', async () => {
    const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    expect(await problem(rsa.certPem, dsa)).toBe('tls.key: the key type DSA is not supported (RSA, EC P-256, P-384 or P-521, or Ed25519 are)')
  })
})

describe('a TLS pair checked again', () => {
  it('reuses the verdict of the same certificate and key, accepted or refused, without importing them again', async () => {
    const otherP384Key = () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    const imports = vi.spyOn(crypto.subtle, 'importKey')
    try {
      // Pairs no other test here checks (the verdicts are the module's).
      const [accepted, refused] = [
        [p384.certPem, p384.keyPem],
        [p384.certPem, otherP384Key()],
      ] as const
      expect(await problem(...accepted)).toBeUndefined()
      expect(await problem(...refused)).toBe('tls.key does not match the certificate in tls.crt')
      const checked = imports.mock.calls.length
      expect(checked).toBe(4)
      expect(await problem(...accepted)).toBeUndefined()
      expect(await problem(...refused)).toBe('tls.key does not match the certificate in tls.crt')
      expect(imports.mock.calls.length).toBe(checked)
      // Another pair is checked.
      expect(await problem(p384.certPem, otherP384Key())).toBe('tls.key does not match the certificate in tls.crt')
      expect(imports.mock.calls.length).toBe(checked + 2)
    } finally {
      imports.mockRestore()
    }
  })
})
