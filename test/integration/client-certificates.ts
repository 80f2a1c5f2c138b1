import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface Authority {
  certPem: string
  /** Issues a client certificate with this common name: its certificate and key (PEM). */
  issue(commonName: string): Promise<{ certPem: string; keyPem: string }>
}

/** A certificate authority made with the openssl CLI (EC P-256), which signs client certificates. */
export async function makeAuthority(dir: string, name: string): Promise<Authority> {
  const file = (suffix: string) => join(dir, `${name}${suffix}`)
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-keyout',
    file('.key'),
    '-out',
    file('.crt'),
  ])
  await writeFile(file('.ext'), 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n')
  return {
    certPem: await readFile(file('.crt'), 'utf8'),
    async issue(commonName) {
      const stem = join(dir, `${name}-${commonName}`)
      await run('openssl', ['req', ...ec, '-subj', `/CN=${commonName}`, '-keyout', `${stem}.key`, '-out', `${stem}.csr`])
      await run('openssl', [
        'x509',
        '-req',
        '-in',
        `${stem}.csr`,
        '-CA',
        file('.crt'),
        '-CAkey',
        file('.key'),
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        file('.ext'),
        '-out',
        `${stem}.crt`,
      ])
      const [certPem, keyPem] = await Promise.all([readFile(`${stem}.crt`, 'utf8'), readFile(`${stem}.key`, 'utf8')])
      return { certPem, keyPem }
    },
  }
}
