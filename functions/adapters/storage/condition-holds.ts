import type { PutCondition } from '../../../core/ports/object-store.ts'

/** Whether a put under `condition` may replace the object whose etag is `current` (undefined: missing). */
export function conditionHolds(condition: PutCondition | undefined, current: string | undefined): boolean {
  if (!condition) return true
  if ('ifNoneMatch' in condition) return current === undefined
  return current === condition.ifMatch
}
