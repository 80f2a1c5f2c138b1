import { CANARY_FEATURES, CANARY_OWN_FEATURES } from '../annotations/canary-features.ts'
import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { RENDERED_FEATURES } from '../annotations/rendered.ts'
import { tellInto } from './tell-notices.ts'

export const IGNORED_ON_CANARY = "ignored on a canary Ingress: the main Ingress's setting applies to the path, as in ingress-nginx"

/**
 * What a canary's annotations ask for that is not done: canary settings without `canary: "true"`
 * (ingress-nginx refuses them), a header value or pattern without the header, a pattern beside a
 * value (the value wins), and on a canary every setting but its balancing (the main Ingress's
 * apply to the path, as ingress-nginx inherits them).
 */
export function canaryNotices(features: Features, namedBy: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const notices: AnnotationNotice[] = []
  const tell = tellInto(notices, namedBy)
  const asked = askedIn(features)
  if (features.canary !== true) {
    for (const feature of CANARY_FEATURES) if (feature !== 'canary' && asked(feature)) tell(feature, 'ignored: canary is not "true"')
    return notices
  }
  const canaryOwn: readonly FeatureName[] = [...CANARY_FEATURES, ...CANARY_OWN_FEATURES]
  for (const feature of Object.keys(features) as FeatureName[])
    if (RENDERED_FEATURES.has(feature) && !canaryOwn.includes(feature)) tell(feature, IGNORED_ON_CANARY)
  if (!asked('canary-by-header')) {
    for (const feature of ['canary-by-header-value', 'canary-by-header-pattern'] as const) if (asked(feature)) tell(feature, 'ignored without canary-by-header')
  } else if (asked('canary-by-header-value') && asked('canary-by-header-pattern'))
    tell('canary-by-header-pattern', 'ignored: canary-by-header-value takes precedence, as in ingress-nginx')
  return notices
}

/** Whether `features` asks for a feature (returned unnamed: see tellInto). */
function askedIn(features: Features): (feature: FeatureName) => boolean {
  return (feature) => features[feature] !== undefined
}
