import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface MakeCertificateOptions {
  /** Directory the key and certificate files are written to. */
  dir: string
  /** DNS names; the first is the CN. Wildcards such as `*.example.com` are fine. */
  hosts: string[]
  /** File stem: writes `<name>.crt` and `<name>.key`. */
  name: string
}

export interface Certificate {
  certPem: string
  keyPem: string
  certFile: string
  keyFile: string
}

export interface TlsSecret {
  apiVersion: 'v1'
  kind: 'Secret'
  type: 'kubernetes.io/tls'
  metadata: { name: string; namespace: string }
  data: { 'tls.crt': string; 'tls.key': string }
}

/** Self-signed EC P-256 certificate (fast to generate) made with the openssl CLI. */
export async function makeCertificate(options: MakeCertificateOptions): Promise<Certificate> {
  const { dir, hosts, name } = options
  const [commonName] = hosts
  if (commonName === undefined) throw new Error('makeCertificate needs at least one host')

  const certFile = join(dir, `${name}.crt`)
  const keyFile = join(dir, `${name}.key`)
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    `subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`,
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ])

  const [certPem, keyPem] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')])
  return { certPem, keyPem, certFile, keyFile }
}

/** The Kubernetes Secret an Ingress `tls` entry would reference. */
export function toTlsSecret(secret: { namespace: string; name: string; certPem: string; keyPem: string }): TlsSecret {
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name: secret.name, namespace: secret.namespace },
    data: { 'tls.crt': base64(secret.certPem), 'tls.key': base64(secret.keyPem) },
  }
}
