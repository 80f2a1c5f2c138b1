/** One NGINX directive of a snippet: its name, its arguments as NGINX reads them (quotes removed, escapes applied), and where it is. */
export interface NginxDirective {
  name: string
  args: string[]
  /** 1-based: the directive's place in the snippet, and the line it starts on. */
  index: number
  line: number
}

/** Where a directive is, in the words a refusal uses: `directive 2 (line 3, "add_header")`. */
export const position = ({ index, line, name }: Pick<NginxDirective, 'index' | 'line' | 'name'>) => `directive ${index} (line ${line}, "${name}")`

/** The escapes NGINX reads inside and outside quotes (ngx_conf_read_token): anything else keeps its backslash. */
const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', t: '\t', r: '\r', n: '\n' }

/**
 * A snippet's text as NGINX's configuration reader splits it: words separated by white space,
 * `"…"` and `'…'` quoting, `#` comments, each directive ended by `;`. Blocks (`{`, `}`) are not read
 * (no directive of the vocabulary takes one): the snippet is refused, as it is when a quote or a
 * directive is left open. Returns the directives, or why the text cannot be read.
 */
export function readNginxDirectives(text: string): NginxDirective[] | { refused: string } {
  const directives: NginxDirective[] = []
  let words: string[] = []
  let start = 0
  let line = 1
  let i = 0
  const refuse = (reason: string) => ({ refused: `line ${line}: ${reason}` })
  while (i < text.length) {
    const char = text[i]!
    if (char === '\n') line += 1
    if (/\s/.test(char)) {
      i += 1
    } else if (char === '#') {
      while (i < text.length && text[i] !== '\n') i += 1
    } else if (char === ';') {
      if (words.length === 0) return refuse('";" without a directive')
      directives.push({ name: words[0]!, args: words.slice(1), index: directives.length + 1, line: start })
      words = []
      i += 1
    } else if (char === '{' || char === '}') {
      return refuse(`a block ("${char}") is not translated: hapedge reads only single directives`)
    } else {
      if (words.length === 0) start = line
      let word = ''
      const quote = char === '"' || char === "'" ? char : undefined
      if (quote) i += 1
      while (i < text.length) {
        const next = text[i]!
        if (quote ? next === quote : /[\s;{}]/.test(next)) break
        // `${name}`: NGINX reads a variable's braces as part of the word, not as a block.
        const braced = /^\$\{[^}\s;]*\}/.exec(text.slice(i))
        if (braced) {
          word += braced[0]
          i += braced[0].length
          continue
        }
        if (next === '\n') line += 1
        if (next === '\\' && i + 1 < text.length) {
          const escaped = text[i + 1]!
          word += ESCAPES[escaped] ?? `\\${escaped}`
          i += 2
          continue
        }
        word += next
        i += 1
      }
      if (quote) {
        if (i >= text.length) return refuse(`a ${quote} quote is not closed`)
        i += 1
      }
      words.push(word)
    }
  }
  if (words.length > 0) return refuse(`"${words[0]}" is not ended by ";"`)
  return directives
}
