import type { FeatureName, Features } from '../annotations/features.ts'
import type { AnnotationNotice } from '../annotations/read-annotations.ts'
import { tellInto } from './tell-notices.ts'
import { DEFAULT_PERIOD_MS, LIMIT_WINDOWS, periodWindow, TABLE_SIZE } from './route-limits.ts'

/** What of the limits is not applied as written: said, never silent. */
export function limitNotices(features: Features, annotationsOf: (feature: FeatureName) => string[]): AnnotationNotice[] {
  const notices: AnnotationNotice[] = []
  const tell = tellInto(notices, annotationsOf)
  if (features['rate-limit-size'] !== undefined)
    tell('rate-limit-size', `not applied: hapedge's limit tables are shared by every Ingress and hold ${TABLE_SIZE} client addresses each`)
  const requests = features['rate-limit-requests']
  const period = features['rate-limit-period'] ?? DEFAULT_PERIOD_MS
  if (requests !== undefined && !LIMIT_WINDOWS.some((window) => window.ms === period)) {
    const [window, limit] = periodWindow(requests, period)
    tell('rate-limit-period', `HAProxy counts over 1s, 1m or 1h: ${requests} requests in ${period} ms are held as ${limit} in ${window}`)
  }
  return notices
}
