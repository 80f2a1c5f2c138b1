import { randomBytes } from 'node:crypto'
import { basename, dirname, join, resolve, sep } from 'node:path'

/** Names that start with this are the store's own temp and lock files: never keys, never listed. */
const RESERVED = '.~'

export const isReservedName = (name: string) => name.startsWith(RESERVED)

/** Why `key` cannot name a file under the root, or undefined when it can. */
function refusal(key: string): string | undefined {
  if (key === '') return 'is empty'
  if (key.startsWith('/')) return 'is absolute'
  if (key.includes('\\')) return 'contains a backslash'
  if (key.includes('\0')) return 'contains NUL'
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty segment'
    if (segment === '.' || segment === '..') return `has a "${segment}" segment`
    if (isReservedName(segment)) return `has a segment starting with "${RESERVED}", reserved for temp and lock files`
  }
  return undefined
}

/** The file that holds `key` under `root`; throws, saying why, for a key that could escape it. */
export function keyPath(root: string, key: string): string {
  const why = refusal(key)
  if (why) throw new Error(`key ${JSON.stringify(key)} ${why}`)
  const path = resolve(root, key)
  if (!path.startsWith(root + sep)) throw new Error(`key ${JSON.stringify(key)} escapes the root`)
  return path
}

/** The directory to walk for `prefix`: its part up to the last `/`, checked like a key. */
export function prefixDirectory(root: string, prefix: string): string {
  const cut = prefix.lastIndexOf('/')
  if (prefix.slice(cut + 1).includes('\\') || prefix.includes('\0')) throw new Error(`prefix ${JSON.stringify(prefix)} contains a backslash or NUL`)
  return cut < 0 ? root : keyPath(root, prefix.slice(0, cut))
}

/** A fresh temp file beside `path`, so that renaming it over `path` stays on one file system. */
export const tempPathFor = (path: string) => join(dirname(path), `${RESERVED}tmp-${randomBytes(6).toString('hex')}-${basename(path)}`)

export const lockPathFor = (path: string) => join(dirname(path), `${RESERVED}lock-${basename(path)}`)
