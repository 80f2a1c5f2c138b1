import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface ServingCertificate {
  /** The CA that signed the server certificate: what a kubeconfig's `certificate-authority-data` holds. */
  caPem: string
  certPem: string
  keyPem: string
}

/** A throwaway CA and a server certificate it signs for `localhost` and 127.0.0.1, made with the openssl CLI in `dir`. */
export async function makeServingCertificate(dir: string): Promise<ServingCertificate> {
  const file = (name: string) => join(dir, name)
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  await run('openssl', ['req', '-x509', ...ec, '-days', '2', '-subj', '/CN=kube-api-double-ca', '-keyout', file('ca.key'), '-out', file('ca.crt')])
  await run('openssl', ['req', '-new', ...ec, '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr')])
  await writeFile(file('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.crt'),
  ])
  const [caPem, certPem, keyPem] = await Promise.all(['ca.crt', 'server.crt', 'server.key'].map((name) => readFile(file(name), 'utf8')))
  return { caPem: caPem!, certPem: certPem!, keyPem: keyPem! }
}
