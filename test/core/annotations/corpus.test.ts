import { beforeAll, describe, expect, it } from 'vitest'
import { type AnnotationReading, readAnnotations } from '../../../core/annotations/read-annotations.ts'
import { prefixOf } from '../../../core/annotations/vocabularies.ts'
import { loadObjects } from '../../../processes/cli/load-objects.ts'
import { corpusPath } from '../../support/fixtures.ts'

interface Read {
  /** `file#document name`, as loadObjects names where an object came from. */
  where: string
  annotations: Record<string, string>
  /** The annotations under the prefixes hapedge reads. */
  known: string[]
  reading: AnnotationReading
}

let ingresses: Read[] = []

beforeAll(async () => {
  const loaded = await loadObjects([corpusPath])
  ingresses = loaded.flatMap(({ object, source }) => {
    const ingress = object as { kind?: string; metadata?: { name?: string; annotations?: Record<string, string> } }
    if (ingress.kind !== 'Ingress') return []
    const annotations = ingress.metadata?.annotations ?? {}
    const where = `${source.replace(/^.*\//, '')} ${ingress.metadata?.name ?? ''}`
    return [{ where, annotations, known: Object.keys(annotations).filter((key) => prefixOf(key)), reading: readAnnotations(annotations) }]
  })
})

/** Who asks for authentication, read independently of the model: the keys and snippet directives of the four controllers' auth features. */
const AUTH_KEY = /^(auth-(type|secret|url|signin|tls-secret|tls-match-cn)|basic-auth-secret|oauth|policies|jwt-key|client-ca)$/
const AUTH_IN_SNIPPET = /\b(auth_request|auth_basic|auth_jwt)\b|http-request\s+auth/

function asksForAuthentication({ annotations }: Read): boolean {
  return Object.entries(annotations).some(([key, value]) => {
    const found = prefixOf(key)
    return found !== undefined && (AUTH_KEY.test(found.suffix) || (/snippet|^config-/.test(found.suffix) && AUTH_IN_SNIPPET.test(value)))
  })
}

const checksBasicAuthentication = ({ reading }: Read) => reading.features['auth-type'] === 'basic' && reading.features['auth-secret'] !== undefined
const checksExternalAuthentication = ({ reading }: Read) => reading.features['auth-url'] !== undefined
const honoured = ({ reading }: Read) => new Set(reading.honoured)
const named = (where: string) => ingresses.find((ingress) => ingress.where === where)!

describe('the real-world corpus (test/fixtures/corpus, SOURCES.tsv)', () => {
  it('prints the inventory of annotations under the known prefixes', () => {
    const annotated = ingresses.filter((ingress) => ingress.known.length > 0)
    const keys = new Map<string, { count: number; outcome: string }>()
    for (const ingress of annotated)
      for (const key of ingress.known) {
        const outcome = honoured(ingress).has(key)
          ? 'honoured'
          : ingress.reading.refusals.some((notice) => notice.annotation === key)
            ? 'refused (fail closed)'
            : 'warning'
        const entry = keys.get(key) ?? { count: 0, outcome }
        keys.set(key, { count: entry.count + 1, outcome: entry.outcome === outcome ? outcome : 'mixed' })
      }
    const refused = annotated.filter((ingress) => ingress.reading.refusals.length > 0)
    const partly = annotated.filter((ingress) => ingress.reading.refusals.length === 0 && ingress.reading.warnings.length > 0)
    const fully = annotated.filter((ingress) => ingress.reading.refusals.length === 0 && ingress.reading.warnings.length === 0)
    const auth = ingresses.filter(asksForAuthentication)
    const lines = [
      `Ingresses: ${ingresses.length}; with annotations under the known prefixes: ${annotated.length}`,
      `  fully honoured: ${fully.length}; partly (warnings): ${partly.length}; refused (fail closed): ${refused.length}`,
      `Annotations under the known prefixes: ${annotated.reduce((sum, ingress) => sum + ingress.known.length, 0)}, honoured: ${annotated.reduce((sum, ingress) => sum + honoured(ingress).size, 0)}`,
      `Ingresses asking for authentication: ${auth.length} (basic, checked: ${auth.filter(checksBasicAuthentication).length}; refused: ${auth.filter((ingress) => ingress.reading.refusals.length > 0).length})`,
      ...auth.map((ingress) => `  ${ingress.where}: ${ingress.reading.refusals.length > 0 ? 'refused' : 'basic authentication'}`),
      'Keys:',
      ...[...keys].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, { count, outcome }]) => `  ${String(count).padStart(3)}  ${key}  ${outcome}`),
      'Refused Ingresses:',
      ...refused.map((ingress) => `  ${ingress.where}: ${ingress.reading.refusals.map((notice) => notice.annotation).join(', ')}`),
    ]
    console.log(lines.join('\n'))
    expect(annotated.length).toBeGreaterThan(0)
    expect(fully.length + partly.length + refused.length).toBe(annotated.length)
  })

  it('leaves no annotation under a known prefix silent: each is honoured, warned about or refused', () => {
    const silent = ingresses.flatMap((ingress) => {
      const noticed = new Set([...ingress.reading.warnings, ...ingress.reading.refusals].map((notice) => notice.annotation))
      return ingress.known.filter((key) => !honoured(ingress).has(key) && !noticed.has(key)).map((key) => `${ingress.where}: ${key}`)
    })
    expect(silent).toEqual([])
  })

  it('serves no Ingress that asks for authentication open: it is checked with basic or external authentication, or refused', () => {
    const auth = ingresses.filter(asksForAuthentication)
    const checked = (ingress: Read) => checksBasicAuthentication(ingress) || checksExternalAuthentication(ingress)
    expect(auth.filter((ingress) => !checked(ingress) && ingress.reading.refusals.length === 0).map((ingress) => ingress.where)).toEqual([])
    expect(auth.filter(checksBasicAuthentication).map((ingress) => ingress.where)).toEqual(
      expect.arrayContaining(['036-ingress2gateway.yaml#1 ingress-basic-auth-file-default', '036-ingress2gateway.yaml#3 ingress-basic-auth-map']),
    )
    expect(auth.filter(checksExternalAuthentication).map((ingress) => ingress.where)).toEqual(
      expect.arrayContaining(['012-ingress-nginx.yaml#1 external-auth', '016-ingress-nginx.yaml#1 external-auth-oauth2']),
    )
    expect(named('108-kubernetes-ingress.yaml#1 cafe-ingress-coffee-minion').reading.refusals).not.toEqual([])
  })

  it('reads the auth-map Secret type, and the explicit ingress.kubernetes.io/ssl-redirect: "false"', () => {
    expect(named('036-ingress2gateway.yaml#3 ingress-basic-auth-map').reading.features['auth-secret-type']).toBe('auth-map')
    expect(named('018-haproxy-ingress.yaml#1 whoami').reading.features['ssl-redirect']).toBe(false)
  })
})
