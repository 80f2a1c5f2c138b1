import { X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DerError, readElement, readElements } from '../../../core/tls/der.ts'
import { readCertificate } from '../../../core/tls/x509.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { pemDer, pairOf } from './tls-fixtures.ts'

describe('the X.509 reader', () => {
  it.each(['shop.example.com', 'rsa.example.com', 'p384.example.com', 'ed25519.example.com'] as const)(
    'finds the public key of %s where OpenSSL does',
    (name) => {
      const { certPem } = pairOf(name)
      const expected = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' })
      expect(Buffer.from(readCertificate(pemDer(certPem)).spki)).toEqual(expected)
    },
  )

  it('refuses the DER stub 30 03 02 01 00: a SEQUENCE, but not a certificate', () => {
    expect(() => readCertificate(Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x00))).toThrow(/a Certificate is a SEQUENCE of 3 elements .* holds 1/)
  })

  it('refuses every truncation of a certificate, and bytes after it, with a reason', () => {
    const der = pemDer(fixtureCertificate('shop.example.com').certPem)
    for (let length = 0; length < der.length; length++) expect(() => readCertificate(der.subarray(0, length)), `${length} bytes`).toThrow(DerError)
    expect(() => readCertificate(Uint8Array.from([...der, 0]))).toThrow('1 bytes follow the element')
  })

  it('refuses a certificate whose fields are not where X.509 puts them', () => {
    const der = pemDer(fixtureCertificate('shop.example.com').certPem)
    // The serial number's INTEGER tag, made an OCTET STRING: same lengths, wrong shape.
    const [, serial] = readElements(readElement(readElement(der).contents).contents)
    const tampered = Uint8Array.from(der)
    tampered[serial!.encoded.byteOffset - der.byteOffset] = 0x04
    expect(() => readCertificate(tampered)).toThrow('tbsCertificate.serialNumber has tag 0x4, not 0x2')
  })
})
