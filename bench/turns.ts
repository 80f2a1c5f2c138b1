import { median, round } from './stats.ts'

/** Turn `n`'s order: the sizes as given on even turns, reversed on odd ones, so that neither always goes first. */
export const turnOrder = <T>(n: number, sizes: readonly T[]): readonly T[] => (n % 2 === 0 ? sizes : [...sizes].reverse())

/**
 * Turn by turn, the largest size's time against the smallest's in the same turn, less 1: their
 * median, to 0.1%. Both met the same minutes of a shared machine, so the drift that moves a whole
 * run cancels. A turn either side lacks (undefined) is left out.
 */
export function turnRatio(smallest: readonly (number | undefined)[], largest: readonly (number | undefined)[]): number {
  const ratios = smallest.flatMap((ms, n) => (ms === undefined || largest[n] === undefined ? [] : [largest[n]! / ms - 1]))
  return round(median(ratios), 3)
}
