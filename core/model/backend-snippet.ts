import { quote } from '../syntax/fields.ts'
import { describeRef } from '../kube/objects.ts'
import { BACKEND_SNIPPET, type Service } from '../kube/service.ts'
import type { Rejection } from './rejection.ts'
import type { ClusterOptions } from './settings.ts'
import { readDirective } from './snippet/directives.ts'
import { checkLogFormat } from './snippet/log-format.ts'
import { SnippetRefusal } from './snippet/refusal.ts'
import { splitWords, WordReader } from './snippet/words.ts'

export const SNIPPET_LIMITS = { lines: 50, lineLength: 1000 }

/**
 * First words that would end the backend and open another section (HAProxy 2.6 to 3.x), or
 * a conditional block (`.if`) that could swallow the sections after it. Compared lowercase.
 */
const SECTIONS = new Set([
  'global',
  'defaults',
  'frontend',
  'backend',
  'listen',
  'peers',
  'resolvers',
  'userlist',
  'program',
  'http-errors',
  'ring',
  'cache',
  'mailers',
  'crt-store',
  'log-forward',
  'fcgi-app',
  'traces',
  'acme',
  'namespace_list',
  'dynamic-update',
  'spoe-agent',
  'spoe-message',
  'spoe-group',
])

/** Lines that hapedge owns in a backend: its server slots, which the runtime API moves by name. */
const SLOT_LINES = new Set(['server', 'server-template', 'default-server'])

/** A first word as HAProxy would read it, before any quoting, escaping or `${VAR}` expansion could change it. */
const KEYWORD = /^[a-z][a-z0-9._-]*$/i

export type SnippetCheck = { lines: string[] } | { problem: string }

/**
 * The lines of a snippet, each trimmed (blank lines dropped), or the first reason to refuse it.
 * Lines that could leave the backend get their own reasons: a control character other than
 * newline, a section or conditional block (`.if`), a server slot line, an environment variable
 * expanded when HAProxy reads its files, too many or too long lines. Every other line must be
 * an allowed directive (snippet/directives.ts) whose sample fetches and converters are on the
 * allow-list (snippet/vocabulary.ts), read word by word as HAProxy reads it; anything else is
 * refused with the line and the word.
 */
export function checkSnippet(text: string): SnippetCheck {
  const control = /[\u0000-\u0009\u000b-\u001f\u007f]/.exec(text)
  if (control) return { problem: `contains the control character ${quote(control[0])} (only newlines separate its lines)` }
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  if (lines.length > SNIPPET_LIMITS.lines) return { problem: `has ${lines.length} lines, more than ${SNIPPET_LIMITS.lines}` }
  for (const [index, line] of lines.entries()) {
    const problem = lineProblem(line, `line ${index + 1}`)
    if (problem) return { problem }
  }
  return { lines }
}

function lineProblem(line: string, where: string): string | undefined {
  if (line.length > SNIPPET_LIMITS.lineLength) return `${where} is longer than ${SNIPPET_LIMITS.lineLength} characters`
  if (line.startsWith('#')) return undefined
  const word = line.split(/\s/, 1)[0]!
  if (!KEYWORD.test(word)) return `${where} must start with an HAProxy keyword, not ${quote(word)}`
  const keyword = word.toLowerCase()
  if (SECTIONS.has(keyword)) return `${where} opens a section (${quote(word)}), which would escape the backend`
  if (SLOT_LINES.has(keyword)) return `${where} declares servers (${quote(word)}): a backend's server slots are hapedge's`
  if (line.includes('${')) return `${where} expands an environment variable ("\${…}") when HAProxy reads its files`
  try {
    const words = splitWords(line)
    readDirective(new WordReader(words))
    // Whatever position a word holds, a sample expression in it is checked: a literal never needs one.
    for (const word of words) checkLogFormat(word)
  } catch (error) {
    if (error instanceof SnippetRefusal) return `${where}: ${error.message}`
    throw error
  }
  return undefined
}

/** The snippet lines to render in a Service's backends: none unless the cluster allows snippets and the snippet is safe. */
export function backendSnippet(service: Service | undefined, options: ClusterOptions): string[] {
  const text = service?.metadata.annotations?.[BACKEND_SNIPPET]
  if (text === undefined || options.snippets !== 'allowed') return []
  const checked = checkSnippet(text)
  return 'lines' in checked ? checked.lines : []
}

/** Why a Service's snippet is not rendered, if it has one that is not. */
export function snippetRejection(service: Service, options: ClusterOptions): Rejection | undefined {
  const text = service.metadata.annotations?.[BACKEND_SNIPPET]
  if (text === undefined) return undefined
  const object = describeRef({ kind: 'Service', namespace: service.metadata.namespace, name: service.metadata.name })
  if (options.snippets !== 'allowed') {
    return { object, reason: `snippets are not allowed on this cluster: ${BACKEND_SNIPPET} is ignored (an operator can set "snippets": "allowed")` }
  }
  const checked = checkSnippet(text)
  return 'problem' in checked ? { object, reason: `${BACKEND_SNIPPET} ${checked.problem}; its backends are rendered without it` } : undefined
}
