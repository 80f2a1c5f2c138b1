import { isHttpPath, quote } from '../syntax/fields.ts'

/**
 * An Ingress path written as a regular expression (use-regex, or ingress-nginx's rewrite-target,
 * which implies it), read without ever running or rendering it: hapedge accepts only the forms
 * that select exactly what a Prefix path selects, so routing stays the route maps' (a runtime
 * edit), and the meaning of each capture group is known in advance, so a rewrite from it is a map
 * value too. Anything else is refused, naming the path, and never becomes configuration.
 */

/** What a capture group of an accepted form holds, for a request of the route's prefix `L`. */
export type Capture =
  /** `/` when the path goes on after `L`, empty for `L` itself: `(/|$)`. */
  | 'slash'
  /** What follows `L/`, empty for `L` itself: `(.*)` after `(/|$)` or `/`. */
  | 'tail'
  /** What follows `L`, its `/` included: `(/.*)`. */
  | 'rest'

export interface PathPattern {
  /** The literal prefix the pattern selects (a Prefix path; `/` for the whole host). */
  prefix: string
  /** The capture groups, `$1` first. */
  captures: readonly Capture[]
  /** The form needs a `/` after the prefix (`/api/(.*)`): the prefix alone is served by the route too. */
  servesPrefixItself: boolean
  /** The form also matches the prefix followed by other characters (`/api/?(.*)` matches `/apis`): those are not served by the route. */
  servesLess?: true
}

export type PathPatternReading = PathPattern | { refused: string }

/** The longest pattern read: ingress-nginx's own examples are a few dozen characters. */
const MAX_PATTERN = 256

interface Form {
  suffix: string
  captures: readonly Capture[]
  servesPrefixItself: boolean
  servesLess?: true
}

/** The accepted forms after the literal prefix, longest first (each is matched as the pattern's end). */
const FORMS: readonly Form[] = [
  { suffix: '(/|$)(.*)', captures: ['slash', 'tail'], servesPrefixItself: false },
  { suffix: '(/.*)?$', captures: ['rest'], servesPrefixItself: false },
  { suffix: '(/.*|$)', captures: ['rest'], servesPrefixItself: false },
  { suffix: '(/|$).*', captures: ['slash'], servesPrefixItself: false },
  { suffix: '(/|$)', captures: ['slash'], servesPrefixItself: false },
  { suffix: '(/.*)', captures: ['rest'], servesPrefixItself: true },
  { suffix: '/(.*)', captures: ['tail'], servesPrefixItself: true },
  // ingress-nginx's examples before 0.22 (`/something/?(.*)`): served as the Prefix path, the rest told.
  { suffix: '/?(.*)', captures: ['tail'], servesPrefixItself: false, servesLess: true },
  { suffix: '/.*', captures: [], servesPrefixItself: true },
  { suffix: '', captures: [], servesPrefixItself: false },
]

/**
 * The literal part: path characters, `.` read as a dot (what a path means by it), and `\.`, `\-`,
 * `\/` escapes. No quantifier, class, group, alternation or other escape.
 */
const LITERAL = /^(?:[A-Za-z0-9_~\-/:@!,;=&.]|%[0-9A-Fa-f]{2}|\\[./-])*$/

const ACCEPTED = 'a literal path, optionally followed by (/|$)(.*), (/|$), (/.*)?$, (/.*|$), (/.*), /(.*), /?(.*) or /.*'

/** A path of an Ingress that reads its paths as regular expressions, as hapedge serves it, or why it cannot. */
export function readPathPattern(path: string): PathPatternReading {
  if (path.length > MAX_PATTERN) return { refused: `the regular expression path is longer than ${MAX_PATTERN} characters` }
  const pattern = path.startsWith('^') ? path.slice(1) : path
  for (const form of FORMS) {
    if (!pattern.endsWith(form.suffix)) continue
    const written = pattern.slice(0, pattern.length - form.suffix.length)
    if (!LITERAL.test(written)) continue
    const literal = written.replace(/\\(.)/g, '$1')
    if (form.suffix === '') return isHttpPath(literal) ? { prefix: trimmed(literal), captures: [], servesPrefixItself: false } : refused(path)
    // `/(.*)` and `/.*` select the whole host; the other forms need a prefix without a trailing `/`.
    const wholeHost = literal === '' && form.suffix.startsWith('/')
    if (!wholeHost && (!isHttpPath(literal) || literal.endsWith('/'))) continue
    const read: PathPattern = { prefix: wholeHost ? '/' : literal, captures: form.captures, servesPrefixItself: form.servesPrefixItself && !wholeHost }
    return form.servesLess && !wholeHost ? { ...read, servesLess: true } : read
  }
  return refused(path)
}

function refused(path: string) {
  return {
    refused: `the regular expression ${quote(path)} is not one hapedge can route: it serves ${ACCEPTED} (a Prefix path, matched case-sensitively), and no other regular expression`,
  }
}

function trimmed(path: string): string {
  const bare = path.replace(/\/+$/, '')
  return bare === '' ? '/' : bare
}
