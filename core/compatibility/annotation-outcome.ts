import type { FeatureName } from '../annotations/features.ts'
import { annotationPath, readAnnotations } from '../annotations/read-annotations.ts'
import { isSnippet } from '../annotations/snippets.ts'
import { prefixOf } from '../annotations/vocabularies.ts'
import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from '../model/ingress-annotations.ts'
import { readRoutePath } from '../model/route-rewrite.ts'

/**
 * What hapedge does with one annotation of an Ingress, as the engine judges it:
 * - honoured: read into a feature hapedge renders, without a warning;
 * - partly: read into a rendered feature, with a warning saying what is not done as written;
 * - refused: access control hapedge cannot honour (the Ingress answers 503), or another controller's
 *   raw snippet (never passed on);
 * - not yet honoured: read into a feature of the model that hapedge does not render yet;
 * - not supported: no feature of the model (or a value it cannot read), with the reason;
 * - silent: none of these, which must never happen.
 */
export type AnnotationStatus = 'honoured' | 'partly' | 'refused' | 'not yet honoured' | 'not supported' | 'silent'

export interface AnnotationOutcome {
  status: AnnotationStatus
  /** How or why, from the engine's warnings and refusals (none when honoured). */
  reasons: string[]
}

/**
 * An Ingress's annotations judged once: each annotation under a known prefix with its outcome. With
 * `paths`, an annotation that leaves one of the Ingress's own paths unserved is judged partly (the
 * corpus figures); the compatibility table's sample Ingresses have paths of their own, so it leaves them out.
 */
export function annotationOutcomes(ingress: Ingress, paths = false): Map<string, AnnotationOutcome> {
  const annotations = ingress.metadata.annotations ?? {}
  const judged = ingressAnnotations(ingress)
  const { readFrom } = readAnnotations(annotations)
  const outcomes = new Map<string, AnnotationOutcome>()
  for (const annotation of Object.keys(annotations).sort()) {
    const found = prefixOf(annotation)
    if (!found) continue
    const about = (notices: readonly { annotation: string; reason: string }[]) =>
      notices.filter((notice) => notice.annotation === annotation).map(({ reason }) => withoutOwnPath(annotation, reason))
    const features = (Object.keys(readFrom) as FeatureName[]).filter((feature) => readFrom[feature]!.includes(annotation))
    const refusals = about(judged.refusals)
    const warnings = [...about(judged.warnings), ...(paths ? about(pathRefusals(ingress)) : [])]
    outcomes.set(annotation, judge(features, judged.rendered, refusals, warnings, isSnippet(found.prefix.vocabularies, found.suffix)))
  }
  return outcomes
}

function judge(features: FeatureName[], rendered: object, refusals: string[], warnings: string[], snippet: boolean): AnnotationOutcome {
  if (refusals.length > 0) return { status: 'refused', reasons: refusals }
  if (features.some((feature) => feature in rendered))
    return warnings.length > 0 ? { status: 'partly', reasons: warnings } : { status: 'honoured', reasons: [] }
  if (snippet && warnings.length > 0) return { status: 'refused', reasons: warnings }
  if (features.length > 0) return { status: 'not yet honoured', reasons: [`read as ${features.join(', ')}, ${warnings.join('; ') || 'not rendered'}`] }
  return warnings.length > 0 ? { status: 'not supported', reasons: warnings } : { status: 'silent', reasons: [] }
}

/** The paths an annotation leaves unserved (a use-regex path outside the safe subset, a target naming a missing group): the rest of the Ingress is served. */
function pathRefusals(ingress: Ingress): { annotation: string; reason: string }[] {
  return (ingress.spec.rules ?? []).flatMap((rule, r) =>
    (rule.http?.paths ?? []).flatMap((path, p) => {
      const read = readRoutePath(ingress, path)
      return 'refused' in read
        ? [{ annotation: read.annotation, reason: `spec.rules[${r}].http.paths[${p}].path: ${read.refused}; this path is not served` }]
        : []
    }),
  )
}

/** `metadata.annotations["<the annotation itself>"]: ` says nothing in a line about that annotation. */
function withoutOwnPath(annotation: string, reason: string): string {
  const own = `${annotationPath(annotation)}: `
  return reason.startsWith(own) ? reason.slice(own.length) : reason
}
