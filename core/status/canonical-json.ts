/** JSON with object keys sorted, so a status read back from the API server compares by content; `omit`: keys left out wherever they are. */
export function canonicalJson(value: unknown, omit?: ReadonlySet<string>): string {
  return JSON.stringify(value, (key, inner: unknown) =>
    omit?.has(key)
      ? undefined
      : inner && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : inner,
  )
}
