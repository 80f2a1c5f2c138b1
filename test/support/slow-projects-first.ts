import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The projects whose files each start a runtime or several processes (workerd, `hapedge serve`,
 * Chromium, the forwarder), longest first. vitest queues projects by name, which left `workers`
 * running alone at the end of the suite; started first, its files overlap the unit files.
 */
const FIRST = ['workers', 'e2e', 'kubernetes', 'browser', 'storage']

const rank = (spec: TestSpecification): number => {
  const at = FIRST.indexOf(spec.project.name)
  return at === -1 ? FIRST.length : at
}

/** vitest's order (slowest or largest file first within a project), with FIRST's projects ahead of the rest. */
export class SlowProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files))
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.at - b.at)
      .map(({ spec }) => spec)
  }
}
