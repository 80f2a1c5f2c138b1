export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export const median = (values: readonly number[]) => percentile(values, 50)

export function heapUsedMb(): number {
  return process.memoryUsage().heapUsed / 1024 / 1024
}

export function collectGarbage(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits))

export interface Latency {
  p50: number
  p95: number
  samples: number
}

/** Median and p95 in ms, to 0.1 ms, with how many values they were taken from. */
export const latency = (values: readonly number[]): Latency => ({
  p50: round(median(values), 1),
  p95: round(percentile(values, 95), 1),
  samples: values.length,
})
