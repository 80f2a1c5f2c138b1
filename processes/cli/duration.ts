import { UsageError } from './usage-error.ts'

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `15m`, `2h`, `1d` (or a number of seconds) in milliseconds. */
export function parseDuration(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim())
  if (!match) throw new UsageError(`--${flag} ${text}: a duration such as 90s, 15m, 2h or 1d`)
  return Number(match[1]) * UNITS[match[2] ?? 's']!
}
