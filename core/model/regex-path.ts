import { quote } from '../syntax/fields.ts'
import { holdsStart, readSafeRegex } from '../syntax/safe-regex.ts'
import { emitRegex } from '../syntax/safe-regex-emit.ts'

/**
 * A use-regex path that is none of the forms a Prefix path serves (path-pattern.ts), read as
 * ingress-nginx reads it (`location ~* ^<path>`): a regular expression anchored at the start of
 * the path, not at its end, case-insensitive unless the annotation asks otherwise. It is read by
 * the safe-regex reader and re-emitted from its tree (never as written), and served through the
 * regular-expression route map (render-regex-paths.ts).
 */
export interface RegexPath {
  /** The expression as the route map matches it after the host: the normalised path, `(?i)` first when case-insensitive. */
  expression: string
  /** Its capture groups, for rewrite-target's `$1`…`$9`. */
  captures: number
}

export type RegexPathReading = RegexPath | { refused: string }

/** The leading `^` that ingress-nginx adds itself is taken as written; any other start anchor could never match after the host. */
export function readRegexPath(path: string, caseInsensitive: boolean): RegexPathReading {
  const written = path.startsWith('^') ? path.slice(1) : path
  const read = readSafeRegex(written)
  if ('refused' in read) return { refused: `the regular expression path ${quote(path)} is not served: ${read.refused}` }
  if (!written.startsWith('/')) return { refused: `the regular expression path ${quote(path)} is not served: it must start with "/"` }
  if (holdsStart(read.tree))
    return { refused: `the regular expression path ${quote(path)} is not served: a "^" other than its first character never matches after the host` }
  return { expression: `${caseInsensitive ? '(?i)' : ''}${emitRegex(read.tree)}`, captures: read.captures }
}
