import { beforeAll, describe, expect, it } from 'vitest'
import { annotationOutcomes } from '../../../core/compatibility/annotation-outcome.ts'
import { type CorpusFigures, type CorpusIngress, corpusFigures, corpusIngress, describeCorpusFigures } from '../../../core/compatibility/corpus-figures.ts'
import { probeIngress } from '../../../core/compatibility/key-status.ts'
import { restrictsAccessAnnotation } from '../../../core/compatibility/restricts-access.ts'
import { loadObjects } from '../../../processes/cli/load-objects.ts'
import { corpusPath } from '../../support/fixtures.ts'

let corpus: CorpusIngress[] = []
let figures: CorpusFigures

beforeAll(async () => {
  corpus = (await loadObjects([corpusPath])).flatMap(({ object, source }) => {
    const ingress = corpusIngress(object)
    return ingress ? [{ where: `${source.replace(/^.*\//, '')} ${ingress.metadata.name}`, ingress }] : []
  })
  figures = corpusFigures(corpus)
})

/** The Ingresses whose annotations restrict access, read from the model's tables, not from its judgement. */
const restricting = () =>
  corpus.filter(({ ingress }) => Object.entries(ingress.metadata.annotations ?? {}).some(([annotation, value]) => restrictsAccessAnnotation(annotation, value)))

describe("the real-world corpus's annotations, as the engine takes them (npm run corpus-figures prints the figures)", () => {
  it('counts every Ingress with annotations under the known prefixes once: fully honoured, partly or refused', () => {
    expect(figures.annotated.length).toBeGreaterThan(0)
    expect([...figures.fully, ...figures.partly, ...figures.refused].sort()).toEqual([...figures.annotated].sort())
  })

  it('leaves no Ingress that is not fully honoured without a warning or a refusal, and no annotation silent', () => {
    expect(figures.silent).toEqual([])
    const silent = corpus.flatMap(({ where, ingress }) =>
      [...annotationOutcomes(ingress)].filter(([, outcome]) => outcome.status === 'silent').map(([annotation]) => `${where}: ${annotation}`),
    )
    expect(silent).toEqual([])
  })

  it('refuses every Ingress with an access-restricting annotation that is not honoured: none is served open', () => {
    expect(restricting().length).toBeGreaterThan(0)
    expect(figures.servedOpen).toEqual([])
    for (const { where, ingress } of restricting()) {
      const open = [...annotationOutcomes(ingress)].filter(
        ([annotation, outcome]) =>
          restrictsAccessAnnotation(annotation, ingress.metadata.annotations![annotation]!) && !['honoured', 'partly'].includes(outcome.status),
      )
      if (open.length > 0) expect(figures.refused, `${where}: ${open.map(([annotation]) => annotation).join(', ')}`).toContain(where)
    }
  })

  it('ranks what blocks Ingresses: each not-honoured annotation with the Ingresses it keeps from fully honoured', () => {
    const blocked = figures.partly.length + figures.refused.length
    expect(figures.unlocks.reduce((sum, { ingresses }) => sum + ingresses, 0)).toBe(blocked)
    for (const { annotation, blocks, alone } of figures.blocking) {
      expect(alone, annotation).toBeLessThanOrEqual(blocks)
      expect(blocks, annotation).toBe(
        figures.unlocks.filter(({ annotations }) => annotations.includes(annotation)).reduce((sum, { ingresses }) => sum + ingresses, 0),
      )
    }
  })
})

describe('corpusFigures', () => {
  it('sorts Ingresses into fully honoured, partly and refused, and names the annotation that keeps each back', () => {
    const figures = corpusFigures([
      { where: 'a', ingress: probeIngress({ 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' }) },
      { where: 'b', ingress: probeIngress({ 'nginx.ingress.kubernetes.io/limit-rate': '5', 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' }) },
      { where: 'c', ingress: probeIngress({ 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' }) },
      { where: 'd', ingress: probeIngress({ 'kubernetes.io/ingress.class': 'hapedge' }) },
    ])
    expect(figures).toMatchObject({ ingresses: 4, annotated: ['a', 'b', 'c'], fully: ['a'], partly: ['b'], refused: ['c'], silent: [], servedOpen: [] })
    expect(figures.blocking).toEqual([
      { annotation: 'nginx.ingress.kubernetes.io/enable-modsecurity', statuses: ['refused'], blocks: 1, alone: 1 },
      { annotation: 'nginx.ingress.kubernetes.io/limit-rate', statuses: ['not supported'], blocks: 1, alone: 1 },
    ])
  })

  it('counts apart the Ingresses held back only by keys no controller documents, and keeps every other one in the second figure', () => {
    const figures = corpusFigures([
      { where: 'only-undocumented', ingress: probeIngress({ 'nginx.org/bad': 'alias;', 'nginx.org/redirect-to-https': 'true' }) },
      { where: 'also-documented', ingress: probeIngress({ 'ingress.kubernetes.io/foo': 'x', 'nginx.ingress.kubernetes.io/limit-rate': '5' }) },
      { where: 'documented', ingress: probeIngress({ 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' }) },
    ])
    expect(figures.undocumentedOnly).toEqual([{ where: 'only-undocumented', annotations: ['nginx.org/bad'] }])
    const text = describeCorpusFigures(figures)
    expect(text).toContain('fully honoured: 1 (33.3%)')
    expect(text).toContain(
      'Without the 1 Ingresses held back only by keys no controller documents (core/annotations/documented-keys.ts), 2 annotated:\n  fully honoured: 1 (50%)',
    )
    expect(text).toContain('  left out: only-undocumented: nginx.org/bad')
  })

  it('judges the paths of an Ingress written without a namespace: a path its regex annotation leaves unserved keeps it from fully honoured', () => {
    const cafe = (path: string) =>
      corpusIngress({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'cafe', annotations: { 'nginx.org/path-regex': 'case_sensitive' } },
        spec: {
          rules: [
            {
              host: 'cafe.example.com',
              http: { paths: [{ path, pathType: 'ImplementationSpecific', backend: { service: { name: 'coffee', port: { number: 80 } } } }] },
            },
          ],
        },
      })!
    const figures = corpusFigures([
      { where: 'served', ingress: cafe('/menu/([^/]+)/([^/]+)') },
      { where: 'unserved', ingress: cafe('/menu/(a+)+') },
    ])
    expect(figures).toMatchObject({ fully: ['served'], partly: ['unserved'], silent: [] })
    expect(figures.blocking).toEqual([{ annotation: 'nginx.org/path-regex', statuses: ['partly'], blocks: 1, alone: 1 }])
  })

  it('reads an Ingress hapedge does not serve as written (an older apiVersion) by its annotations, and skips other kinds', () => {
    const old = {
      apiVersion: 'extensions/v1beta1',
      kind: 'Ingress',
      metadata: { name: 'old', annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', n: 1 } },
    }
    expect(corpusIngress(old)?.metadata).toEqual({ name: 'old', namespace: 'default', annotations: { 'nginx.ingress.kubernetes.io/canary': 'true' } })
    expect(corpusIngress({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } })).toBeUndefined()
  })
})
