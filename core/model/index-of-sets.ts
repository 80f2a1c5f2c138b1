/** A one-to-many index whose empty entries disappear, so its keys are exactly what is in use. */
export class Index {
  private readonly entries = new Map<string, Set<string>>()

  add(key: string, value: string): void {
    let values = this.entries.get(key)
    if (!values) this.entries.set(key, (values = new Set()))
    values.add(value)
  }

  delete(key: string, value: string): void {
    const values = this.entries.get(key)
    if (!values) return
    values.delete(value)
    if (values.size === 0) this.entries.delete(key)
  }

  get(key: string): ReadonlySet<string> | undefined {
    return this.entries.get(key)
  }

  keys(): Iterable<string> {
    return this.entries.keys()
  }

  /** Every value under every key (a value under two keys comes twice). */
  *values(): Iterable<string> {
    for (const values of this.entries.values()) yield* values
  }
}
