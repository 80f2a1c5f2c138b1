import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { readsRegexPaths } from '../annotations/regex-paths.ts'
import type { Ingress } from '../kube/ingress.ts'
import { readPathPattern } from './path-pattern.ts'

/**
 * What a use-regex Ingress's paths select beyond what they say, so it is told, never silent: a
 * form that needs a `/` after its prefix (`/api/(.*)`) is served as the Prefix path `/api`, which
 * serves `/api` itself too; and a use-regex whose value asks for case-insensitive matching of a
 * path served as a Prefix path, which the route maps do not do (regex routes honour it: regex-path.ts).
 * (A path hapedge cannot route at all is refused with the path: route-rewrite.ts.)
 */
const CASE_SENSITIVE =
  'paths served as Prefix paths (a literal prefix and one of the forms that select it) are matched case-sensitively, as the route maps match every path; case-insensitive matching is honoured only for the other regular expression paths'

export function rewriteNotices(ingress: Ingress, features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  if (!readsRegexPaths(features)) return []
  const notices: AnnotationNotice[] = []
  // Told only where the value asks for it: ingress-nginx's "true" (and hapedge's) make regular expressions case-insensitive as a side effect, which the README says.
  if (features['use-regex'] === 'case-insensitive' && servesPrefixForms(ingress))
    for (const annotation of annotationsOf('use-regex'))
      if (/^case[-_]insensitive$/i.test(ingress.metadata.annotations?.[annotation]?.trim() ?? '')) notices.push({ annotation, reason: CASE_SENSITIVE })
  ingress.spec.rules?.forEach((rule, r) =>
    rule.http?.paths.forEach(({ path, pathType }, p) => {
      if (pathType === 'Exact' || path === undefined) return
      const pattern = readPathPattern(path)
      if ('refused' in pattern || !(pattern.servesPrefixItself || pattern.servesLess)) return
      const served = `spec.rules[${r}].http.paths[${p}].path ${JSON.stringify(path)} is served as the Prefix path ${pattern.prefix}`
      const reason = pattern.servesLess
        ? `${served}: ${pattern.prefix} followed by other characters than "/" (${pattern.prefix}x) is not served by it`
        : `${served}, which serves ${pattern.prefix} itself too`
      for (const annotation of annotationsOf('use-regex')) notices.push({ annotation, reason })
    }),
  )
  return notices
}

/** Whether some path of the Ingress that is read as a regular expression is served as a Prefix path. */
function servesPrefixForms(ingress: Ingress): boolean {
  return (ingress.spec.rules ?? []).some((rule) =>
    (rule.http?.paths ?? []).some(({ path, pathType }) => pathType !== 'Exact' && path !== undefined && !('refused' in readPathPattern(path))),
  )
}
