import type { FeatureName } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'

/** Tells `reason` about each annotation `feature` was read from. */
export type Tell = (feature: FeatureName, reason: string) => void

/**
 * The `tell` of one Ingress's judgement, into `notices`. Returned from here rather than written
 * as a named closure in each judgement: tsx compiles with esbuild's keepNames, which names every
 * named closure by a defineProperty each time it is made, once per Ingress per judgement, and a
 * resync of 20,000 Ingresses spent half a second of CPU naming them. What is returned here has no name to keep.
 */
export function tellInto(notices: AnnotationNotice[], annotationsOf: (feature: FeatureName) => string[]): Tell {
  return (feature, reason) => {
    for (const annotation of annotationsOf(feature)) notices.push({ annotation, reason })
  }
}
