/** A Kubernetes object as the double keeps it: JSON, with the metadata every object has. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata?: ObjectMeta
  [field: string]: unknown
}

/** The metadata fields the double reads or fills in; others pass through untouched. */
export interface ObjectMeta {
  name?: string
  generateName?: string
  namespace?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  resourceVersion?: string
  uid?: string
  creationTimestamp?: unknown
  generation?: number
}

export type Selector = (object: KubeObject) => boolean

/**
 * `labelSelector` as the API server takes it: `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`,
 * `k notin (a,b)`, comma-separated, all required.
 */
export function labelSelector(text: string | null): Selector {
  const terms = splitTerms(text).map((term): Selector => {
    const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term)
    if (set) {
      const [, key, operator, list] = set
      const values = list!.split(',').map((value) => value.trim())
      return (object) => {
        const value = labelsOf(object)[key!]
        return operator === 'in' ? value !== undefined && values.includes(value) : value === undefined || !values.includes(value)
      }
    }
    if (term.startsWith('!')) return (object) => !(term.slice(1) in labelsOf(object))
    const [key, operator, value] = comparison(term)
    if (operator === undefined) return (object) => key in labelsOf(object)
    return (object) => (labelsOf(object)[key] === value) === (operator !== '!=')
  })
  return (object) => terms.every((term) => term(object))
}

/**
 * `fieldSelector`: `path=value`, `path==value`, `path!=value` on any dotted field
 * (`metadata.name`, `metadata.namespace`, `type`, `spec.x`). The real server accepts only a few
 * fields per resource; the double accepts every one.
 */
export function fieldSelector(text: string | null): Selector {
  const terms = splitTerms(text).map((term): Selector => {
    const [path, operator, value] = comparison(term)
    if (operator === undefined) throw new Error(`field selector ${JSON.stringify(term)}: needs =, == or !=`)
    return (object) => (String(fieldAt(object, path) ?? '') === value) === (operator !== '!=')
  })
  return (object) => terms.every((term) => term(object))
}

function splitTerms(text: string | null): string[] {
  if (!text) return []
  const terms: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    const char = text[i]
    if (char === '(') depth++
    if (char === ')') depth--
    if ((char === ',' && depth === 0) || i === text.length) {
      const term = text.slice(start, i).trim()
      if (term) terms.push(term)
      start = i + 1
    }
  }
  return terms
}

function comparison(term: string): [string, '=' | '!=' | undefined, string] {
  const match = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(term)
  if (!match) return [term, undefined, '']
  return [match[1]!, match[2] === '!=' ? '!=' : '=', match[3]!.trim()]
}

const labelsOf = (object: KubeObject): Record<string, string> => object.metadata?.labels ?? {}

function fieldAt(object: KubeObject, path: string): unknown {
  let value: unknown = object
  for (const part of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined
  return value
}
