import type { FeatureName, Features } from '../annotations/features.ts'
import { CORS_SETTINGS } from '../annotations/cors-features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { tellInto } from './tell-notices.ts'
import { spellingOf } from '../annotations/spellings.ts'
import { prefixOf } from '../annotations/vocabularies.ts'

/**
 * Header names as ingress-nginx accepts them in its CORS lists ("letters, numbers, _ and -"), or
 * `*`: nothing else reaches a map value or a response header (route-cors.ts).
 */
export const CORS_HEADER_NAME = /^([A-Za-z0-9_-]+|\*)$/

/**
 * What an Ingress's CORS annotations ask for that is not done as written, so it is told, never
 * silent: CORS settings without enable-cors, a regular expression of origins, header names
 * beyond letters, digits, `_` and `-`, and credentials with any origin.
 */
export function corsNotices(keys: readonly string[], features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const notices: AnnotationNotice[] = []
  const tell = tellInto(notices, annotationsOf)
  if (features['enable-cors'] !== true) {
    for (const feature of CORS_SETTINGS) if (features[feature] !== undefined) tell(feature, 'CORS is off without enable-cors: "true"; ignored')
    return notices
  }
  const origins = features['cors-allow-origin']
  if (origins === undefined)
    for (const annotation of keys.filter(spellsOrigins))
      notices.push({ annotation, reason: 'an unreadable list of origins allows none, never any (as the default "*" would)' })
  if (origins && 'pattern' in origins)
    tell('cors-allow-origin', 'a regular expression of origins is not honoured (list the origins, or "*"): no origin is allowed')
  for (const feature of ['cors-allow-headers', 'cors-expose-headers'] as const)
    if (features[feature]?.some((name) => !CORS_HEADER_NAME.test(name)))
      tell(feature, 'header names may hold only letters, digits, "_" and "-" (as ingress-nginx accepts them); the default is used')
  if (features['cors-allow-credentials'] === true && (origins === undefined || 'any' in origins))
    tell('cors-allow-credentials', 'with any origin ("*") the CORS protocol allows no credentials: Access-Control-Allow-Credentials is not sent')
  return notices
}

/** Whether an annotation is a spelling of cors-allow-origin, read or not. */
export function spellsOrigins(key: string): boolean {
  const under = prefixOf(key)
  return under?.prefix.vocabularies.some((vocabulary) => spellingOf(vocabulary, under.suffix)?.feature === 'cors-allow-origin') ?? false
}
