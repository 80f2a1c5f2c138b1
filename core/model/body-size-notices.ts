import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'

/**
 * The largest limit HAProxy 2.6 is sure to enforce on a body without Content-Length (chunked, or
 * HTTP/2 without the header): it checks what its request buffer holds once it has waited for the
 * body (render-body-size.ts), which is the whole body only when it fits in `tune.bufsize` (16384)
 * less the 1024 bytes reserved for rewriting and the request's headers. 8 KiB leaves 7 KiB for
 * headers. A body with Content-Length is checked against its announced length, at any size.
 */
export const STREAMED_BODY_CHECKED = 8 * 1024

export const STREAMED_BODY_REASON =
  'enforced on bodies with Content-Length; a body without it (chunked, or HTTP/2 without content-length) is checked on what HAProxy 2.6 buffers of it ' +
  `(16 KiB less 1 KiB and the headers), so above ${STREAMED_BODY_CHECKED} bytes the limit may not hold for a streamed body`

/** A limit above what a streamed body can be checked against holds for bodies with Content-Length only: said, never silent. */
export function bodySizeNotices(features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const size = features['proxy-body-size']
  if (typeof size !== 'number' || size <= STREAMED_BODY_CHECKED) return []
  return annotationsOf('proxy-body-size').map((annotation) => ({ annotation, reason: STREAMED_BODY_REASON }))
}
