import { describe, expect, it } from 'vitest'
import { checkPasswordHash, readUsers } from '../../../core/annotations/password-hashes.ts'

/** The password "secret" hashed by Debian 12's crypt(3) (libxcrypt 4.4, as the agents' HAProxy 2.6 links), and by openssl passwd -apr1. */
const HASHES = {
  bcrypt: '$2y$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a',
  yescrypt: '$y$j9T$abcdefghijklmnop$3dL1LkYnZM.OVXuVdnnaKVDlLYT92dRwOzDZ5XiVCe.',
  scrypt: '$7$CU..../....abcdefgh$XWs9HxtpA2.6U5CDBBbcW.h3o9pYlC.MIIb8JqMgZx6',
  sha512crypt: '$6$abcdefgh$ltjgWl6579NluT/Vi1nwEvcil.G5Nbc4NiXZaNGStk8PSwGfQv72N2CKPPrVACtLtip/cZ/1GM/O6IND4WQhG.',
  sha256crypt: '$5$abcdefgh$gruCpC7VkOTspMQTTSAR8mtlO9Upms.fwqE5y16JVM.',
  md5crypt: '$1$abcdefgh$cHJi5PXp/ki/ktXzqlk6I1',
}
const APR1 = '$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/'
const DES = 'abNANd1rDfiNc'

describe('checkPasswordHash', () => {
  it.each(Object.entries(HASHES))('accepts %s', (scheme, hash) => {
    expect(checkPasswordHash(hash)).toEqual({ scheme })
  })

  it.each([
    ['$apr1$ (htpasswd -m, its default)', APR1, /\$apr1\$/],
    ['{SHA} (htpasswd -s)', '{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=', /\{SHA\}/],
    ['DES crypt, which reads 8 characters', DES, /8 characters/],
    ['a plain password', 'secret', /not a password hash/],
    ['a truncated bcrypt hash', HASHES.bcrypt.slice(0, -1), /not a password hash/],
  ])('refuses %s, with how to regenerate it', (_, hash, reason) => {
    const check = checkPasswordHash(hash)
    expect('refused' in check && check.refused).toMatch(reason)
  })
})

describe('readUsers', () => {
  it('reads an htpasswd file under `auth`, skipping blank and comment lines, and leaves out users HAProxy cannot check', () => {
    const reading = readUsers('auth-file', { auth: `# users\nalice:${HASHES.bcrypt}\n\nbob:${APR1}\ncarol\n` })
    expect(reading).toEqual({
      users: [{ name: 'alice', hash: HASHES.bcrypt }],
      refused: [
        { user: 'bob', reason: expect.stringContaining('$apr1$') },
        { user: 'carol', reason: expect.stringContaining('not a password hash') },
      ],
    })
  })

  it("reads NGINX Inc.'s file under `htpasswd`, and one key per user for auth-map", () => {
    expect(readUsers('nginx-htpasswd', { htpasswd: `alice:${HASHES.md5crypt}` })).toEqual({ users: [{ name: 'alice', hash: HASHES.md5crypt }], refused: [] })
    expect(readUsers('auth-map', { alice: HASHES.sha512crypt })).toEqual({ users: [{ name: 'alice', hash: HASHES.sha512crypt }], refused: [] })
  })

  it('says which key is missing', () => {
    expect(readUsers('auth-file', { users: '' })).toEqual({ error: 'the Secret has no "auth" key' })
  })
})
