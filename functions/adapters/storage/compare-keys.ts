const encoder = new TextEncoder()

/**
 * Orders keys by their UTF-8 bytes, as S3 and R2 list them. JavaScript's `<` compares UTF-16
 * code units, which puts characters above U+FFFF before U+E000–U+FFFF; bytes do not.
 */
export function compareKeys(a: string, b: string): number {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  const length = Math.min(x.length, y.length)
  for (let i = 0; i < length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}
