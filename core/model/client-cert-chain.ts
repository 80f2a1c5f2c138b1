import { DerError } from '../tls/der.ts'
import { onelineName, upperHex } from '../tls/distinguished-name.ts'
import { readPemText } from '../tls/pem.ts'
import { readCertificate } from '../tls/x509.ts'

/** ingress-nginx's auth-tls-verify-depth when unset, or 0, which it reads as unset. */
export const DEFAULT_VERIFY_DEPTH = 1

export type ChainIssuers = { issuers: string[] } | { reason: string }

/**
 * The certificates of a CA bundle that may issue a client's certificate at auth-tls-verify-depth
 * `depth`, by their subject as HAProxy's `ssl_c_i_dn,hex` reads a client certificate's issuer.
 * OpenSSL counts the depth (nginx's ssl_verify_depth) in intermediate certificates: at depth d,
 * at most d stand between the client's certificate and a self-signed CA. HAProxy 2.6 shows no
 * verified chain, so the chain is counted in the bundle, where OpenSSL finds an issuer first: a
 * self-signed certificate is at level 0, another one level above the highest of the bundle's
 * certificates named as its issuer (the longest chain OpenSSL could build; one whose issuer the
 * bundle lacks reaches no trust anchor and has none). Only subjects whose certificates are all at
 * a level up to d may issue a client's; a chain through an intermediate the client sends but the bundle lacks is
 * refused, as its length cannot be known.
 */
export function chainIssuers(pem: string, depth: number): ChainIssuers {
  const blocks = readPemText(pem, 'ca.crt')
  if (!blocks.ok) return { reason: blocks.reason }
  const certificates: { issuer: string; subject: Uint8Array; subjectKey: string }[] = []
  try {
    for (const { der } of blocks.blocks) {
      const { issuer, subject } = readCertificate(der)
      certificates.push({ issuer: upperHex(issuer), subject, subjectKey: upperHex(subject) })
    }
  } catch (error) {
    if (error instanceof DerError) return { reason: `a certificate of ca.crt is not X.509: ${error.message}` }
    throw error
  }
  // Infinity: a cycle of issuers, whose chains OpenSSL may build to any length.
  const levels = new Map<number, number | undefined>()
  const onPath = new Set<number>()
  const levelOf = (index: number): number | undefined => {
    if (levels.has(index)) return levels.get(index)
    if (onPath.has(index)) return Number.POSITIVE_INFINITY
    const { issuer, subjectKey } = certificates[index]!
    let level: number | undefined
    if (issuer === subjectKey) level = 0
    else {
      onPath.add(index)
      for (const [other, candidate] of certificates.entries()) {
        const above = other === index || candidate.subjectKey !== issuer ? undefined : levelOf(other)
        if (above !== undefined) level = Math.max(level ?? 0, above + 1)
      }
      onPath.delete(index)
    }
    levels.set(index, level)
    return level
  }
  // A subject may issue when every certificate of it that reaches a root (cross-signed ones share it) does within the depth.
  const deepest = new Map<string, { level: number; subject: Uint8Array }>()
  for (const [index, { subject, subjectKey }] of certificates.entries()) {
    const level = levelOf(index)
    if (level !== undefined) deepest.set(subjectKey, { level: Math.max(level, deepest.get(subjectKey)?.level ?? 0), subject })
  }
  const issuers = new Set<string>()
  for (const { level, subject } of deepest.values()) {
    if (level > depth) continue
    const name = onelineName(subject)
    if ('unknownAttribute' in name)
      return { reason: `a CA certificate of ca.crt names its subject with attribute ${name.unknownAttribute}, which hapedge cannot write as HAProxy reads it` }
    issuers.add(upperHex(name.bytes))
  }
  return { issuers: [...issuers].sort() }
}
