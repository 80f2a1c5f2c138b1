import type { Ingress } from '../kube/ingress.ts'
import { readObject } from '../kube/objects.ts'
import { ingressAnnotations } from '../model/ingress-annotations.ts'
import { type AnnotationOutcome, annotationOutcomes } from './annotation-outcome.ts'
import { documentedAnnotation } from './documented-annotation.ts'
import { restrictsAccessAnnotation } from './restricts-access.ts'

/** One Ingress of a corpus, named by where it came from (`010-ingress-nginx.yaml#2 web`). */
export interface CorpusIngress {
  where: string
  ingress: Ingress
}

/** A not-honoured annotation, and how many Ingresses it keeps from being fully honoured. */
export interface BlockingAnnotation {
  annotation: string
  /** Its outcomes in the corpus (`not supported`, `refused`…), each once. */
  statuses: string[]
  /** Ingresses it is not honoured on. */
  blocks: number
  /** Ingresses it is the only annotation not honoured on: honouring it would make them fully honoured. */
  alone: number
}

export interface CorpusFigures {
  ingresses: number
  /** Ingresses with at least one annotation under the known prefixes. */
  annotated: string[]
  fully: string[]
  /** Served, with warnings. */
  partly: string[]
  /** Refused (fail closed: their routes answer 503). */
  refused: string[]
  /** Not fully honoured, yet without a warning or a refusal: must stay empty. */
  silent: string[]
  /** Served, though an annotation that restricts access is not honoured: must stay empty. */
  servedOpen: string[]
  blocking: BlockingAnnotation[]
  /** The distinct sets of annotations that keep Ingresses from fully honoured, with how many each keeps: what honouring would raise the figure most. */
  unlocks: { annotations: string[]; ingresses: number }[]
  /**
   * Ingresses held back only by keys no controller documents (documented-annotation.ts: `nginx.org/bad`
   * of a validation fixture), with those keys: no controller honours them, so the second figure is
   * over the annotated Ingresses without these. Every other Ingress stays in it, whatever it carries.
   */
  undocumentedOnly: { where: string; annotations: string[] }[]
}

/**
 * An Ingress of a corpus as the engine reads its annotations: the object itself when hapedge reads
 * it, else (an older apiVersion, an invalid spec) its metadata alone, so that its annotations are
 * still counted; anything that is not an Ingress is undefined.
 */
export function corpusIngress(input: unknown): Ingress | undefined {
  const raw = input as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown; annotations?: unknown } } | undefined
  if (raw?.kind !== 'Ingress') return undefined
  // Manifests leave the namespace to `kubectl apply`, which gives the default one: read so, the Ingress's paths are judged too.
  const read = readObject(raw.metadata?.namespace === undefined ? { ...raw, metadata: { ...raw.metadata, namespace: 'default' } } : input)
  if (read.status === 'object' && read.object.kind === 'Ingress') return read.object
  const annotations = Object.fromEntries(Object.entries(raw.metadata?.annotations ?? {}).filter(([, value]) => typeof value === 'string'))
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value !== '' ? value : fallback)
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: text(raw.metadata?.name, 'unnamed'), namespace: text(raw.metadata?.namespace, 'default'), annotations },
    spec: {},
  }
}

/** How the engine takes a corpus's Ingresses' annotations: fully honoured, partly, refused, and what blocks the rest. */
export function corpusFigures(corpus: readonly CorpusIngress[]): CorpusFigures {
  const figures: CorpusFigures = {
    ingresses: corpus.length,
    annotated: [],
    fully: [],
    partly: [],
    refused: [],
    silent: [],
    servedOpen: [],
    blocking: [],
    unlocks: [],
    undocumentedOnly: [],
  }
  const blocking = new Map<string, { statuses: Set<string>; blocks: number; alone: number }>()
  const unlocks = new Map<string, number>()
  for (const { where, ingress } of corpus) {
    const outcomes = annotationOutcomes(ingress, true)
    if (outcomes.size === 0) continue
    figures.annotated.push(where)
    const judged = ingressAnnotations(ingress)
    const notHonoured = [...outcomes].filter(([, outcome]) => outcome.status !== 'honoured')
    if (judged.refusal !== undefined) figures.refused.push(where)
    else if (notHonoured.length > 0) figures.partly.push(where)
    else figures.fully.push(where)
    // Told: each annotation not honoured has a reason (an Ingress warning or refusal, or a path it leaves unserved, which the Ingress is rejected for).
    if (notHonoured.some(([, outcome]) => outcome.reasons.length === 0)) figures.silent.push(where)
    if (
      judged.refusal === undefined &&
      notHonoured.some(([annotation, outcome]) => !served(outcome) && restrictsAccessAnnotation(annotation, annotationValue(ingress, annotation)))
    )
      figures.servedOpen.push(where)
    if (notHonoured.length > 0 && notHonoured.every(([annotation]) => !documentedAnnotation(annotation)))
      figures.undocumentedOnly.push({ where, annotations: notHonoured.map(([annotation]) => annotation) })
    if (notHonoured.length > 0) {
      const set = notHonoured.map(([annotation]) => annotation).join('\n')
      unlocks.set(set, (unlocks.get(set) ?? 0) + 1)
    }
    for (const [annotation, outcome] of notHonoured) {
      const entry = blocking.get(annotation) ?? { statuses: new Set<string>(), blocks: 0, alone: 0 }
      entry.statuses.add(outcome.status)
      entry.blocks += 1
      if (notHonoured.length === 1) entry.alone += 1
      blocking.set(annotation, entry)
    }
  }
  figures.blocking = [...blocking]
    .map(([annotation, { statuses, blocks, alone }]) => ({ annotation, statuses: [...statuses].sort(), blocks, alone }))
    .sort((a, b) => b.alone - a.alone || b.blocks - a.blocks || (a.annotation < b.annotation ? -1 : 1))
  figures.unlocks = [...unlocks]
    .map(([set, ingresses]) => ({ annotations: set.split('\n'), ingresses }))
    .sort((a, b) => b.ingresses - a.ingresses || a.annotations.length - b.annotations.length || (a.annotations.join() < b.annotations.join() ? -1 : 1))
  return figures
}

const served = ({ status }: AnnotationOutcome) => status === 'honoured' || status === 'partly'

const annotationValue = (ingress: Ingress, annotation: string) => ingress.metadata.annotations?.[annotation] ?? ''

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10)

/** The figures as the script prints them. */
export function describeCorpusFigures(figures: CorpusFigures): string {
  const { annotated, fully, partly, refused, undocumentedOnly } = figures
  const documented = annotated.length - undocumentedOnly.length
  return [
    `Ingresses: ${figures.ingresses}; with annotations under the known prefixes: ${annotated.length}`,
    `  fully honoured: ${fully.length} (${percent(fully.length, annotated.length)}%); partly (warnings): ${partly.length}; refused (fail closed): ${refused.length}`,
    `  silent: ${figures.silent.length}; served open: ${figures.servedOpen.length}`,
    `Without the ${undocumentedOnly.length} Ingresses held back only by keys no controller documents (core/annotations/documented-keys.ts), ${documented} annotated:`,
    `  fully honoured: ${fully.length} (${percent(fully.length, documented)}%)`,
    ...undocumentedOnly.map(({ where, annotations }) => `  left out: ${where}: ${annotations.join(', ')}`),
    'Annotations not honoured, by the Ingresses they keep from fully honoured (alone: the only one there):',
    '  blocks  alone  annotation  (status)',
    ...figures.blocking.map(
      ({ annotation, statuses, blocks, alone }) => `  ${String(blocks).padStart(6)}  ${String(alone).padStart(5)}  ${annotation}  (${statuses.join(', ')})`,
    ),
    'What would make Ingresses fully honoured (Ingresses: the annotations to honour):',
    ...figures.unlocks.map(({ annotations, ingresses }) => `  ${String(ingresses).padStart(3)}: ${annotations.join(', ')}`),
    'Refused Ingresses:',
    ...refused.map((where) => `  ${where}`),
    ...(figures.silent.length > 0 ? ['Silent Ingresses:', ...figures.silent.map((where) => `  ${where}`)] : []),
    ...(figures.servedOpen.length > 0 ? ['Served open:', ...figures.servedOpen.map((where) => `  ${where}`)] : []),
  ].join('\n')
}
