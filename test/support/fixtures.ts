import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const fixturePath = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url))

/** A committed self-signed certificate and key (see test/fixtures/tls/README.md). */
export function fixtureCertificate(name: 'shop.example.com' | 'apps.example.com') {
  return { certPem: readFileSync(fixturePath(`tls/${name}.crt`), 'utf8'), keyPem: readFileSync(fixturePath(`tls/${name}.key`), 'utf8') }
}

/** Real-world manifests kept verbatim, with their sources and licences (test/fixtures/corpus/SOURCES.tsv). */
export const corpusPath = fixturePath('corpus')
