import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A serial of its own for each certificate signed: `-CAcreateserial` keeps one in a file beside the
 * authority's (`<name>.srl`), and certificates signed at once raced on it ("Unable to load number").
 */
const serial = () => String((randomBytes(8).readBigUInt64BE() >> 1n) + 1n)

export interface Authority {
  certPem: string
  /** Its certificate and the intermediates above it, the root's excluded (none for a root): what a client sends after its own. */
  chainPem: string
  /** Issues a client certificate with this common name (and the subject's other RDNs, openssl's `/O=…`): its certificate and key (PEM). */
  issue(commonName: string, more?: string): Promise<{ certPem: string; keyPem: string }>
  /** Issues an intermediate CA certificate, whose subject is `subject` (openssl's `/C=…/CN=…`). */
  intermediate(name: string, subject: string): Promise<Authority>
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

/** A certificate authority made with the openssl CLI (EC P-256), self-signed, which signs client certificates and intermediates. */
export async function makeAuthority(dir: string, name: string, subject = `/CN=${name}`): Promise<Authority> {
  const stem = join(dir, name)
  await run('openssl', [
    'req',
    '-x509',
    ...EC,
    '-days',
    '2',
    '-subj',
    subject,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-keyout',
    `${stem}.key`,
    '-out',
    `${stem}.crt`,
  ])
  return authorityAt(dir, name)
}

/** The authority whose files are `<dir>/<name>.{crt,key}`, below the intermediates of `above` (undefined: a root). */
async function authorityAt(dir: string, name: string, above?: string): Promise<Authority> {
  const stem = join(dir, name)
  const certPem = await readFile(`${stem}.crt`, 'utf8')
  const chainPem = above === undefined ? '' : `${certPem}${above}`
  /** Signs `<dir>/<child>.csr` into `<dir>/<child>.crt` with these extensions. */
  const sign = async (child: string, extensions: string) => {
    await writeFile(join(dir, `${child}.ext`), extensions)
    const file = join(dir, child)
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      `${file}.csr`,
      '-CA',
      `${stem}.crt`,
      '-CAkey',
      `${stem}.key`,
      '-set_serial',
      serial(),
      '-days',
      '2',
      '-extfile',
      `${file}.ext`,
      '-out',
      `${file}.crt`,
    ])
  }
  return {
    certPem,
    chainPem,
    async issue(commonName, more = '') {
      const child = `${name}-${commonName}`
      const file = join(dir, child)
      await run('openssl', ['req', ...EC, '-subj', `/CN=${commonName}${more}`, '-keyout', `${file}.key`, '-out', `${file}.csr`])
      await sign(child, 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n')
      const [cert, key] = await Promise.all([readFile(`${file}.crt`, 'utf8'), readFile(`${file}.key`, 'utf8')])
      return { certPem: cert, keyPem: key }
    },
    async intermediate(child, subject) {
      const file = join(dir, child)
      await run('openssl', ['req', ...EC, '-subj', subject, '-keyout', `${file}.key`, '-out', `${file}.csr`])
      await sign(child, 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n')
      return authorityAt(dir, child, chainPem)
    },
  }
}
