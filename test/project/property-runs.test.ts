import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runs, runsFactor } from '../support/property-runs.ts'

describe('HAPEDGE_PROPERTY_RUNS', () => {
  it('multiplies each property test case count, 1 when unset or empty', () => {
    expect(runsFactor(undefined)).toBe(1)
    expect(runsFactor('')).toBe(1)
    expect(runsFactor('10')).toBe(10)
    expect(runsFactor('0.5')).toBe(0.5)
  })

  it('refuses what is not a positive number, naming the variable', () => {
    for (const text of ['0', '-2', 'ten', 'Infinity']) {
      expect(() => runsFactor(text)).toThrow(`HAPEDGE_PROPERTY_RUNS=${text}: give a positive number`)
    }
  })

  it("scales fast-check's default for the properties that keep it (the unit projects' setup file)", () => {
    expect(fc.readConfigureGlobal().numRuns).toBe(runs(100))
    expect(runs(100)).toBeGreaterThanOrEqual(1)
  })
})
