import { compareText } from '../compare-text.ts'

/** An object, or part of one, that hapedge does not serve, and why. */
export interface Rejection {
  /** `Ingress shop/web` */
  object: string
  reason: string
}

export function compareRejections(a: Rejection, b: Rejection): number {
  return compareText(a.object, b.object) || compareText(a.reason, b.reason)
}

/** Sorted and without repeats: the same problem seen from several hosts is one rejection. */
export function normalizeRejections(rejections: Iterable<Rejection>): Rejection[] {
  const unique = new Map<string, Rejection>()
  for (const rejection of rejections) unique.set(`${rejection.object}\n${rejection.reason}`, rejection)
  return [...unique.values()].sort(compareRejections)
}
