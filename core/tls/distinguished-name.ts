import { bytesToHex, concatBytes } from '@noble/hashes/utils.js'
import { decodeOid, DerError, expectTag, readElements, readWhole, TAG } from './der.ts'

/**
 * A Name (RFC 5280, 4.1.2.4) as HAProxy's `ssl_c_i_dn` and `ssl_c_s_dn` give it without arguments
 * (ssl_sock_get_dn_oneline): `/<short name>=<value>` per attribute in the order encoded, the
 * value's bytes as they are, nothing escaped. The short names are OpenSSL's (OBJ_nid2sn); an
 * attribute type outside this table is one whose name hapedge cannot write as HAProxy would.
 */
const SHORT_NAMES: ReadonlyMap<string, string> = new Map([
  ['2.5.4.3', 'CN'],
  ['2.5.4.4', 'SN'],
  ['2.5.4.5', 'serialNumber'],
  ['2.5.4.6', 'C'],
  ['2.5.4.7', 'L'],
  ['2.5.4.8', 'ST'],
  ['2.5.4.9', 'street'],
  ['2.5.4.10', 'O'],
  ['2.5.4.11', 'OU'],
  ['2.5.4.12', 'title'],
  ['2.5.4.13', 'description'],
  ['2.5.4.15', 'businessCategory'],
  ['2.5.4.17', 'postalCode'],
  ['2.5.4.41', 'name'],
  ['2.5.4.42', 'GN'],
  ['2.5.4.43', 'initials'],
  ['2.5.4.44', 'generationQualifier'],
  ['2.5.4.46', 'dnQualifier'],
  ['2.5.4.65', 'pseudonym'],
  ['2.5.4.97', 'organizationIdentifier'],
  ['1.2.840.113549.1.9.1', 'emailAddress'],
  ['0.9.2342.19200300.100.1.1', 'UID'],
  ['0.9.2342.19200300.100.1.25', 'DC'],
  ['1.3.6.1.4.1.311.60.2.1.1', 'jurisdictionL'],
  ['1.3.6.1.4.1.311.60.2.1.2', 'jurisdictionST'],
  ['1.3.6.1.4.1.311.60.2.1.3', 'jurisdictionC'],
])

export type OnelineName = { bytes: Uint8Array } | { unknownAttribute: string }

/** The bytes HAProxy's one-line form of an encoded Name holds; throws DerError when it is no Name. */
export function onelineName(name: Uint8Array): OnelineName {
  const parts: Uint8Array[] = []
  const encoder = new TextEncoder()
  for (const rdn of readElements(expectTag(readWhole(name), TAG.sequence, 'a Name').contents)) {
    for (const attribute of readElements(expectTag(rdn, TAG.set, 'a RelativeDistinguishedName').contents)) {
      const [type, value, ...rest] = readElements(expectTag(attribute, TAG.sequence, 'an AttributeTypeAndValue').contents)
      if (!value || rest.length > 0) throw new DerError('an AttributeTypeAndValue is not a type and a value')
      const oid = decodeOid(expectTag(type, TAG.oid, 'an attribute type').contents)
      const short = SHORT_NAMES.get(oid)
      if (short === undefined) return { unknownAttribute: oid }
      parts.push(encoder.encode(`/${short}=`), value.contents)
    }
  }
  return { bytes: concatBytes(...parts) }
}

/** Bytes as HAProxy's `hex` converter writes them: two upper-case digits each. */
export const upperHex = (bytes: Uint8Array): string => bytesToHex(bytes).toUpperCase()
