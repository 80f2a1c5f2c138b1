import { describe, expect, it } from 'vitest'
import { checkSnippet, SNIPPET_LIMITS } from '../../../core/model/backend-snippet.ts'

describe('a backend configuration snippet', () => {
  it('is taken line by line, trimmed, without blank lines; comments and directives inside the backend pass', () => {
    expect(checkSnippet('  http-response set-header X-Snippet yes\n\n# why\ntimeout server 30s  \noption forwardfor\n')).toEqual({
      lines: ['http-response set-header X-Snippet yes', '# why', 'timeout server 30s', 'option forwardfor'],
    })
  })

  it('is refused, with the line and the reason, when it could reach beyond its backend', () => {
    const refused: [string, RegExp][] = [
      ['timeout server 1s\nfrontend evil\n bind :9999', /^line 2 opens a section \("frontend"\)/],
      ['  Backend other', /^line 1 opens a section \("Backend"\)/],
      ...['global', 'defaults', 'listen', 'peers', 'resolvers', 'userlist', 'program', 'http-errors', 'ring', 'cache', 'mailers', 'crt-store'].map(
        (section): [string, RegExp] => [`option httplog\n${section} x`, new RegExp(`^line 2 opens a section \\("${section}"\\)`)],
      ),
      ['"frontend" evil', /^line 1 must start with an HAProxy keyword, not "\\"frontend\\""/],
      ['fr\\ontend evil', /^line 1 must start with an HAProxy keyword/],
      ['.if 0', /^line 1 must start with an HAProxy keyword/],
      ['server extra 10.0.0.9:80', /^line 1 declares servers \("server"\)/],
      ['default-server ssl verify none', /^line 1 declares servers/],
      ['http-response set-header X "${SECRET}"', /^line 1 expands an environment variable/],
      ['option httplog\r\nfrontend evil', /^contains the control character "\\r"/],
      ['option httplog\u0000', /^contains the control character "\\u0000"/],
      ['http-response\tset-header X y', /^contains the control character "\\t"/],
      [Array.from({ length: SNIPPET_LIMITS.lines + 1 }, () => 'option httplog').join('\n'), /^has 51 lines, more than 50/],
      [`http-response set-header X ${'y'.repeat(SNIPPET_LIMITS.lineLength)}`, /^line 1 is longer than 1000 characters/],
    ]
    for (const [text, reason] of refused) {
      const checked = checkSnippet(text)
      expect(checked, JSON.stringify(text)).toEqual({ problem: expect.stringMatching(reason) })
    }
  })
})
