import { quote } from '../../syntax/fields.ts'
import { expected } from './refusal.ts'
import { checkSampleExpression } from './sample-expression.ts'
import { FETCHES } from './vocabulary.ts'

/**
 * The sample expressions of a log-format string: `%[expr]` and `%{flags}[expr]`. Each ends at
 * the first `]` and may hold no `[`: HAProxy 2.6 reads to the end of the expression, older
 * versions to the first `]`, and both read the same text when it holds neither.
 */
function expressionsOf(format: string): string[] {
  const expressions: string[] = []
  for (const start of format.matchAll(/%(\{[^}]*\})?\[/g)) {
    const from = start.index + start[0].length
    const end = format.indexOf(']', from)
    if (end < 0) throw expected(`"]" closing the sample expression in ${quote(format)}`)
    const expression = format.slice(from, end)
    if (expression.includes('[')) throw expected(`no "[" inside the sample expression in ${quote(format)}`)
    expressions.push(expression)
  }
  return expressions
}

/** Refuses a log-format string whose sample expressions reach beyond the request (`%[env(…)]`, `%[var(proc.x)]`…). */
export function checkLogFormat(format: string): void {
  for (const expression of expressionsOf(format)) checkSampleExpression(expression, FETCHES)
}
