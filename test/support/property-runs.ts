import fc from 'fast-check'

/**
 * How many cases a property test draws: its own count times HAPEDGE_PROPERTY_RUNS (1 unless set).
 * `npm test` keeps counts that fit its time on two cores; a deeper run sets, say, 10
 * (`HAPEDGE_PROPERTY_RUNS=10 npm run test:fast -- --testTimeout 600000`).
 */
const factor = runsFactor(process.env.HAPEDGE_PROPERTY_RUNS)

export function runs(count: number): number {
  return Math.max(1, Math.round(count * factor))
}

/** fast-check's own default (100 cases) scaled the same way, for the properties that keep it. */
export function scaleDefaultRuns(): void {
  fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(100) })
}

export function runsFactor(text: string | undefined): number {
  if (text === undefined || text === '') return 1
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`HAPEDGE_PROPERTY_RUNS=${text}: give a positive number, the factor each property test's case count is multiplied by (e.g. 10)`)
  }
  return value
}
