import { expect } from 'vitest'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { holdAfter } from './gateway-objects.ts'

/**
 * Applies each step's objects as MODIFIED events to one live cluster, and expects its files
 * after each step to be a full rebuild's of everything sent so far (each object in place of the
 * one of the same kind and metadata): the incremental path ending where a rebuild does.
 */
export function expectEachStepAsFullRebuild(steps: readonly (readonly unknown[])[]): void {
  const live = new LiveCluster()
  const seen: unknown[] = []
  for (const step of steps) {
    holdAfter(seen, step)
    live.apply(step.map((object) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })))
    expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild(seen).files))
  }
}
