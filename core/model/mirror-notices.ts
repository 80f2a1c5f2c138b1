import type { FeatureName, Features } from '../annotations/features.ts'
import { MIRROR_FEATURES } from '../annotations/mirror-features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { tellInto } from './tell-notices.ts'

/** mirror-host and mirror-request-body without mirror-target do nothing: said, never silent. */
export function mirrorNotices(features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const notices: AnnotationNotice[] = []
  if (features['mirror-target'] !== undefined) return notices
  const tell = tellInto(notices, annotationsOf)
  for (const feature of MIRROR_FEATURES) if (features[feature] !== undefined) tell(feature, 'ignored without mirror-target')
  return notices
}
