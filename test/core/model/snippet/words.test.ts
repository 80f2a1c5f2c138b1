import { describe, expect, it } from 'vitest'
import { SnippetRefusal } from '../../../../core/model/snippet/refusal.ts'
import { splitWords } from '../../../../core/model/snippet/words.ts'

describe('a snippet line is cut into words as HAProxy cuts it', () => {
  it('splits on spaces outside quotes, removes quotes and stops at an unquoted #', () => {
    expect(splitWords('http-response  set-header X-A "a b" # trailing comment')).toEqual(['http-response', 'set-header', 'X-A', 'a b'])
    expect(splitWords(`return string 'it''s'"#1" x#y`)).toEqual(['return', 'string', 'its#1', 'x'])
    expect(splitWords('set-header X "" y ""')).toEqual(['set-header', 'X', '', 'y'])
  })

  it('unescapes outside single quotes what HAProxy unescapes, and keeps other backslashes', () => {
    expect(splitWords('a\\ b \\\\ \\# \\" \\x25[src] \\1')).toEqual(['a b', '\\', '#', '"', '%[src]', '\\1'])
    expect(splitWords(`'\\x25' "\\$"`)).toEqual(['\\x25', '$'])
    expect(splitWords('\\$HOME')).toEqual(['\\$HOME'])
  })

  it('refuses what HAProxy would expand or not read at all', () => {
    for (const [line, reason] of [
      ['set-header X "$HOME"', /"\$" inside double quotes expands an environment variable/],
      ['set-header X "${HOME}"', /"\$" inside double quotes/],
      ['set-header X "open', /a double quote is not closed/],
      ["set-header X 'open", /a single quote is not closed/],
      ['set-header X \\xZZ', /expected two hexadecimal digits after "\\x"/],
    ] as const) {
      expect(() => splitWords(line), line).toThrow(SnippetRefusal)
      expect(() => splitWords(line), line).toThrow(reason)
    }
  })
})
