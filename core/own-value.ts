/**
 * `record[key]` when the record holds `key` itself. A plain object also answers for what it
 * inherits from `Object.prototype` (`constructor`, `toString`, `__proto__`…), and input can name
 * any of those: a kind, a ConfigMap key or a command looked up plainly would find a function.
 */
export function ownValue<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
