import { createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fixturePath } from '../../support/fixtures.ts'

/** A committed certificate and key of each key type (test/fixtures/tls/README.md), keys in PKCS#8. */
export function pairOf(name: 'shop.example.com' | 'apps.example.com' | 'rsa.example.com' | 'p384.example.com' | 'ed25519.example.com') {
  return { certPem: readFileSync(fixturePath(`tls/${name}.crt`), 'utf8'), keyPem: readFileSync(fixturePath(`tls/${name}.key`), 'utf8') }
}

/** The same key in another encoding: PKCS#1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`). */
export function reencoded(keyPem: string, type: 'pkcs1' | 'sec1'): string {
  return createPrivateKey(keyPem).export({ type, format: 'pem' }) as string
}

/** The DER of a PEM text's first block. */
export function pemDer(pem: string): Uint8Array {
  return Uint8Array.from(Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64'))
}

export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')

/** A PEM block around some bytes. */
export const pemBlock = (label: string, der: Uint8Array) => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64')}\n-----END ${label}-----\n`
