import type { FeatureName } from './features.ts'
import type { Header } from './values.ts'

/**
 * A translated NGINX snippet's headers beside another spelling's list of the same feature (an
 * annotation's, or another snippet's): they add up, as NGINX adds a snippet's directives to what the
 * annotations render, instead of one list winning whole. `first` takes precedence: a name both set
 * is kept as `first` sets it (and named in `clashes`); additions and removals are all kept.
 */
export function mergeHeaderLists(feature: FeatureName, first: readonly (Header | string)[], second: readonly (Header | string)[]) {
  const nameOf = (item: Header | string) => (typeof item === 'string' ? item : item.name).toLowerCase()
  if (feature.endsWith('-add-header')) return { merged: [...first, ...second], clashes: [] }
  const taken = new Set(first.map(nameOf))
  const clashes = feature.endsWith('-set-header') ? second.filter((item) => taken.has(nameOf(item))).map(nameOf) : []
  return { merged: [...first, ...second.filter((item) => !taken.has(nameOf(item)))], clashes }
}

/** The header list features a snippet's candidates merge into (the others, proxy-ssl-verify, have one winner). */
export const isHeaderList = (feature: FeatureName) => /^(request|response)-(set|add|del)-header$/.test(feature)
