import { asksNothing, type FeatureName, type Features, restrictsAccess } from '../annotations/features.ts'
import { type AnnotationNotice, type AnnotationReading, annotationPath, readAnnotations } from '../annotations/read-annotations.ts'
import { NOT_YET_HONOURED, RENDERED_FEATURES } from '../annotations/rendered.ts'
import type { Ingress } from '../kube/ingress.ts'
import { describeIngress } from './ingress-order.ts'
import { perObject } from './per-object.ts'
import { redirectNotices } from './redirect-notices.ts'
import { bodySizeNotices } from './body-size-notices.ts'
import { corsNotices } from './cors-notices.ts'
import { readHeaders } from './header-rules.ts'
import { aliasNotices } from './alias-notices.ts'
import { rewriteNotices } from './rewrite-notices.ts'
import { canaryNotices } from './canary-notices.ts'
import { limitNotices } from './limit-notices.ts'
import { externalAuthNotices } from './external-auth-notices.ts'
import { mirrorNotices } from './mirror-notices.ts'
import { compareText } from '../compare-text.ts'

/** An annotation of an Ingress that hapedge does not honour as written, and why: the Ingress is served without it. */
export interface AnnotationWarning {
  /** `Ingress shop/web` */
  object: string
  annotation: string
  reason: string
}

/** What an Ingress's annotations mean for hapedge. */
export interface IngressAnnotations {
  /** The features hapedge renders (RENDERED_FEATURES), as the annotations ask for them: nothing else can be read by mistake. */
  rendered: Features
  warnings: AnnotationWarning[]
  /** Set when the annotations restrict access in a way hapedge does not honour: the Ingress is refused (its routes answer 503), never served open. */
  refusal?: string
  /** The annotations that make up the refusal, each with its reason (empty when the Ingress is served). */
  refusals: AnnotationNotice[]
}

/** The reading each judgement was made from, for messages that name the annotation a feature came from. */
const readings = new WeakMap<Ingress, AnnotationReading>()

/** An Ingress's annotations read once (objects are immutable): the engine asks for each Ingress from several hosts. */
export const ingressAnnotations = perObject(judge)

/** Where an Ingress's features were read from (`readFrom`: the agreeing annotations; `sources`: the winner, or what implied it), from the one reading its judgement made. */
export function annotationSources(ingress: Ingress): Pick<AnnotationReading, 'readFrom' | 'sources'> {
  ingressAnnotations(ingress)
  return readings.get(ingress)!
}

/**
 * The judgement of annotations that ask for nothing and are told nothing (none hapedge reads: most
 * Ingresses), the same for every Ingress: made once, and frozen, as what every such Ingress shares.
 */
const UNANNOTATED: IngressAnnotations = Object.freeze({
  rendered: Object.freeze({}),
  warnings: Object.freeze([]) as never[],
  refusals: Object.freeze([]) as never[],
})

function judge(ingress: Ingress): IngressAnnotations {
  const reading = readAnnotations(ingress.metadata.annotations ?? {})
  readings.set(ingress, reading)
  // Every notice below reads a feature: without one, there is none to give.
  if (asksNothing(reading.features) && reading.warnings.length === 0 && reading.refusals.length === 0) return UNANNOTATED
  const namedBy = namesIn(reading)
  const refusals = [...reading.refusals]
  const notices = [...reading.warnings]
  for (const feature of Object.keys(reading.features) as FeatureName[]) {
    if (RENDERED_FEATURES.has(feature)) continue
    for (const annotation of namedBy(feature)) {
      if (restrictsAccess(feature))
        refusals.push({ annotation, reason: `${feature} is ${NOT_YET_HONOURED} and restricts access, so the routes are refused rather than served open` })
      else notices.push({ annotation, reason: NOT_YET_HONOURED })
    }
  }
  notices.push(...redirectNotices(ingress, reading.features, namedBy))
  notices.push(...bodySizeNotices(reading.features, namedBy))
  notices.push(...corsNotices(Object.keys(ingress.metadata.annotations ?? {}), reading.features, namedBy))
  notices.push(...readHeaders(reading.features, namedBy).notices)
  notices.push(...aliasNotices(ingress, reading.features, namedBy))
  notices.push(...rewriteNotices(ingress, reading.features, namedBy))
  notices.push(...canaryNotices(reading.features, namedBy))
  notices.push(...limitNotices(reading.features, namedBy))
  notices.push(...mirrorNotices(reading.features, namedBy))
  const externalAuth = externalAuthNotices(ingress, reading.features, namedBy)
  notices.push(...externalAuth.warnings)
  refusals.push(...externalAuth.refusals)
  const object = describeIngress(ingress)
  const refused = new Set(refusals.map((notice) => notice.annotation))
  // A refused annotation is told once, in the rejection; the rest of the notices are warnings.
  const warnings = unique(notices.filter((notice) => !refused.has(notice.annotation))).map(({ annotation, reason }) => ({ object, annotation, reason }))
  const rendered = Object.fromEntries(Object.entries(reading.features).filter(([feature]) => RENDERED_FEATURES.has(feature as FeatureName))) as Features
  const judgement: IngressAnnotations = { rendered, warnings, refusals: unique(refusals) }
  if (refusals.length > 0)
    judgement.refusal = `${judgement.refusals.map(({ annotation, reason }) => `${annotationPath(annotation)}: ${reason}`).join('; ')}; its routes answer 503`
  return judgement
}

/** `annotationsOf` in one reading (returned unnamed: see tellInto). */
function namesIn(reading: ReturnType<typeof readAnnotations>): (feature: FeatureName) => string[] {
  return (feature) => annotationsOf(feature, reading)
}

/** The annotations a feature was read from; for a feature only implied, the annotation that implies it. */
function annotationsOf(feature: FeatureName, reading: ReturnType<typeof readAnnotations>): string[] {
  const read = reading.readFrom[feature]
  if (read) return read
  const source = reading.sources[feature]
  return source ? [source.replace(/ \(implied\)$/, '')] : []
}

/** Sorted by annotation then reason, without repeats. */
function unique(notices: AnnotationNotice[]): AnnotationNotice[] {
  const byText = new Map(notices.map((notice) => [`${notice.annotation}\n${notice.reason}`, notice]))
  return [...byText.values()].sort((a, b) => compareText(a.annotation, b.annotation) || compareText(a.reason, b.reason))
}

export function compareWarnings(a: AnnotationWarning, b: AnnotationWarning): number {
  return compareText(a.object, b.object) || compareText(a.annotation, b.annotation) || compareText(a.reason, b.reason)
}

/** One line for a log or a terminal: `Ingress shop/web: warning: <annotation>: <reason>`. */
export function describeWarning({ object, annotation, reason }: AnnotationWarning): string {
  return `${object}: warning: ${annotation}: ${reason}`
}
