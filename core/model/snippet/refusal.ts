import { quote } from '../../syntax/fields.ts'

/** Why one snippet line is refused. The line's grammar throws it; checkSnippet adds the line number. */
export class SnippetRefusal extends Error {}

/** A word outside the allow-list: the refusal names it, so the author knows what to remove. */
export function notAllowed(word: string, why?: string): SnippetRefusal {
  return new SnippetRefusal(`${quote(word)} is not allowed in a backend snippet${why ? ` (${why})` : ''}`)
}

/** The line ended, or a value is malformed, where the grammar needs `what`. */
export function expected(what: string): SnippetRefusal {
  return new SnippetRefusal(`expected ${what}`)
}
