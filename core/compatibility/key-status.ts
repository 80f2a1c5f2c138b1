import type { DocumentedKey } from '../annotations/documented-keys.ts'
import { HEADER_VARIABLES } from '../annotations/header-variables.ts'
import { SNIPPET_VOCABULARY } from '../annotations/nginx-snippet.ts'
import { translatedSnippetScope } from '../annotations/snippets.ts'
import { prefixOf } from '../annotations/vocabularies.ts'
import type { Ingress } from '../kube/ingress.ts'
import { type AnnotationOutcome, type AnnotationStatus, annotationOutcomes } from './annotation-outcome.ts'

/** A documented key as hapedge takes it: over all its documented values. */
export interface KeyStatus {
  annotation: string
  status: AnnotationStatus
  /** How (partly) or why (the others), each reason once. */
  reasons: string[]
  /** Each documented value's own outcome. */
  values: { value: string; outcome: AnnotationOutcome }[]
}

/** The host the probe Ingress serves, with TLS, as most Ingresses that carry these annotations do. */
const PROBE_HOST = 'app.example.com'

/** An Ingress that carries only the given annotations, on one host with TLS and one path. */
export function probeIngress(annotations: Readonly<Record<string, string>>): Ingress {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'probe', namespace: 'default', annotations: { ...annotations } },
    spec: {
      tls: [{ hosts: [PROBE_HOST], secretName: 'app-tls' }],
      rules: [{ host: PROBE_HOST, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'app', port: { number: 80 } } } }] } }],
    },
  }
}

/** The value judged for a key the model reads no value of: what hapedge says of it does not depend on the value. */
const ANY_VALUE = ''

/** Worst first: a key none of whose values is served gets the worst of their statuses. */
const SEVERITY: readonly AnnotationStatus[] = ['silent', 'refused', 'not yet honoured', 'not supported', 'partly', 'honoured']

/**
 * Judges a documented key through the engine, once per documented value (with its companions):
 * honoured when every value is; partly when some are served (the others say how); otherwise the
 * worst status of its values, with their reasons.
 */
export function keyStatus(key: DocumentedKey): KeyStatus {
  const values = (key.values.length > 0 ? key.values : [ANY_VALUE]).map((value) => ({
    value,
    outcome: annotationOutcomes(probeIngress({ ...key.with, [key.annotation]: value })).get(key.annotation) ?? { status: 'silent' as const, reasons: [] },
  }))
  const judged = judgeValues(key.annotation, values)
  return translatedSnippet(key.annotation) ? asVocabulary(judged) : judged
}

type JudgedValues = KeyStatus['values']

/** Honoured when every value is, partly when some are served, otherwise the worst of their statuses. */
function judgeValues(annotation: string, values: JudgedValues): KeyStatus {
  const isServed = ({ outcome }: (typeof values)[number]) => outcome.status === 'honoured' || outcome.status === 'partly'
  if (values.every(({ outcome }) => outcome.status === 'honoured')) return { annotation, status: 'honoured', reasons: [], values }
  if (values.some(isServed)) {
    const reasons = byReason(values.flatMap(({ value, outcome }) => (outcome.status === 'partly' ? outcome.reasons.map((reason) => ({ value, reason })) : [])))
    const others = byReason(values.filter((entry) => !isServed(entry)).map(({ value, outcome }) => ({ value, reason: describe(outcome) })))
    return { annotation, status: 'partly', reasons: [...reasons, ...others], values }
  }
  const status = SEVERITY.find((candidate) => values.some(({ outcome }) => outcome.status === candidate))!
  const same = new Set(values.map(({ outcome }) => describe(outcome))).size === 1
  const reasons = same ? values[0]!.outcome.reasons : byReason(values.map(({ value, outcome }) => ({ value, reason: describe(outcome) })))
  return { annotation, status, reasons, values }
}

/** One line per reason, naming the values it is about: `` `on`, `optional`: refused (…) ``. */
function byReason(entries: { value: string; reason: string }[]): string[] {
  const values = new Map<string, string[]>()
  for (const { value, reason } of entries) values.set(reason, [...(values.get(reason) ?? []), value])
  return [...values].map(([reason, about]) => `${about.map((value) => `\`${value}\``).join(', ')}: ${reason}`)
}

/** Whether the key is an NGINX snippet hapedge translates through its vocabulary (nginx-snippet.ts). */
function translatedSnippet(annotation: string): boolean {
  const found = prefixOf(annotation)
  return found !== undefined && translatedSnippetScope(found.prefix.vocabularies, found.suffix) !== undefined
}

/**
 * A translated snippet key is partly honoured whatever its documented values do: only snippets of
 * the vocabulary's directives are, any other is refused whole. The values' own outcomes follow.
 */
function asVocabulary(judged: KeyStatus): KeyStatus {
  const vocabulary = `a vocabulary of NGINX directives (${SNIPPET_VOCABULARY.join(', ')}; header values as text or one of ${HEADER_VARIABLES.map((name) => `$${name}`).join(', ')}); a snippet with any other directive, option or variable is refused whole, never passed on`
  const others =
    judged.status === 'honoured' || judged.status === 'partly'
      ? judged.reasons
      : byReason(judged.values.map(({ value, outcome }) => ({ value, reason: describe(outcome) })))
  return { ...judged, status: 'partly', reasons: [vocabulary, ...others] }
}

const describe = ({ status, reasons }: AnnotationOutcome) => `${status}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`
