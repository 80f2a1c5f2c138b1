import { describe, expect, it } from 'vitest'
import { chainIssuers } from '../../../core/model/client-cert-chain.ts'
import { upperHex } from '../../../core/tls/distinguished-name.ts'
import { type NameAttributes, syntheticCertificatePem } from '../../support/synthetic-certificates.ts'

const CN = '2.5.4.3'
const O = '2.5.4.10'
const name = (cn: string): NameAttributes => [[CN, cn]]
/** HAProxy's `ssl_c_i_dn,hex` of a Name of one common name. */
const oneline = (cn: string) => upperHex(new TextEncoder().encode(`/CN=${cn}`))

const root = syntheticCertificatePem(name('root'))
const issuing = syntheticCertificatePem(name('issuing'), name('root'))
const team = syntheticCertificatePem(name('team'), name('issuing'))

describe('chainIssuers: the certificates of a CA bundle a client certificate may be issued by', () => {
  it('counts intermediates above the issuer as OpenSSL counts the depth: 0 the root only, 1 one intermediate, 2 two', () => {
    const bundle = `${team}${root}${issuing}`
    expect(chainIssuers(bundle, 0)).toEqual({ issuers: [oneline('root')] })
    expect(chainIssuers(bundle, 1)).toEqual({ issuers: [oneline('issuing'), oneline('root')].sort() })
    expect(chainIssuers(bundle, 2)).toEqual({ issuers: [oneline('issuing'), oneline('root'), oneline('team')].sort() })
  })

  it('gives none for an intermediate whose issuer the bundle lacks (OpenSSL reaches no trust anchor through it)', () => {
    expect(chainIssuers(`${issuing}${team}`, 5)).toEqual({ issuers: [] })
  })

  it('counts the longest chain when two certificates share a subject (a cross-signed CA)', () => {
    const crossSigned = syntheticCertificatePem(name('issuing'), name('team'))
    // issuing is 1 under root, but also 3 under root through team: at depth 2 neither it nor what it issues can be told apart.
    expect(chainIssuers(`${root}${issuing}${team}${crossSigned}`, 2)).toEqual({ issuers: [oneline('root')] })
  })

  it('allows nothing through a cycle of issuers', () => {
    const a = syntheticCertificatePem(name('a'), name('b'))
    const b = syntheticCertificatePem(name('b'), name('a'))
    expect(chainIssuers(`${root}${a}${b}`, 100)).toEqual({ issuers: [oneline('root')] })
  })

  it('writes several attributes in their order, their values as they are', () => {
    const subject: NameAttributes = [
      ['2.5.4.6', 'FR'],
      [O, 'Hapedge Test'],
      ['1.2.840.113549.1.9.1', 'ca@example.test'],
      ['0.9.2342.19200300.100.1.25', 'test'],
    ]
    const expected = upperHex(new TextEncoder().encode('/C=FR/O=Hapedge Test/emailAddress=ca@example.test/DC=test'))
    expect(chainIssuers(syntheticCertificatePem(subject), 1)).toEqual({ issuers: [expected] })
  })

  it('refuses a bundle whose allowed CA names an attribute whose short name hapedge does not know, naming it', () => {
    const odd = syntheticCertificatePem([
      [CN, 'odd'],
      ['1.3.6.1.4.1.99999.1', 'x'],
    ])
    expect(chainIssuers(`${root}${odd}`, 1)).toEqual({ reason: expect.stringMatching(/attribute 1\.3\.6\.1\.4\.1\.99999\.1/) })
  })

  it('refuses a block that is no certificate, saying so', () => {
    const notCertificate = '-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n'
    expect(chainIssuers(`${root}${notCertificate}`, 1)).toEqual({ reason: expect.stringMatching(/not X\.509/) })
  })
})
