import { describe, expect, it } from 'vitest'
import { checkSnippet, SNIPPET_LIMITS } from '../../../core/model/backend-snippet.ts'
import { ALLOWED_SNIPPET_LINES } from '../../support/allowed-snippet-lines.ts'

/** The reason a one-line snippet is refused, or undefined when it is accepted. */
function problem(text: string): string | undefined {
  const checked = checkSnippet(text)
  return 'problem' in checked ? checked.problem : undefined
}

/** Each snippet must be refused for a reason matching its pattern. */
function expectRefused(cases: [string, RegExp][]): void {
  for (const [text, reason] of cases) expect(problem(text), JSON.stringify(text)).toMatch(reason)
}

const notAllowed = (word: string, line = 1) =>
  new RegExp(`^line ${line}: ${JSON.stringify(word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not allowed in a backend snippet`)

describe('a backend configuration snippet', () => {
  it('is taken line by line, trimmed, without blank lines; comments and allowed directives pass', () => {
    expect(checkSnippet('  http-response set-header X-Snippet yes\n\n# why\ntimeout server 30s  \noption forwardfor\n')).toEqual({
      lines: ['http-response set-header X-Snippet yes', '# why', 'timeout server 30s', 'option forwardfor'],
    })
  })

  it('accepts the directives, actions, fetches and converters on the allow-list', () => {
    for (const line of ALLOWED_SNIPPET_LINES) expect(checkSnippet(line), line).toEqual({ lines: [line] })
  })

  it('is refused, with the line and the reason, when it could leave its backend', () => {
    expectRefused([
      ['timeout server 1s\nfrontend evil\n bind :9999', /^line 2 opens a section \("frontend"\)/],
      ['  Backend other', /^line 1 opens a section \("Backend"\)/],
      ...['global', 'defaults', 'listen', 'peers', 'resolvers', 'userlist', 'program', 'http-errors', 'ring', 'cache', 'mailers', 'crt-store'].map(
        (section): [string, RegExp] => [`option forwardfor\n${section} x`, new RegExp(`^line 2 opens a section \\("${section}"\\)`)],
      ),
      ['"frontend" evil', /^line 1 must start with an HAProxy keyword, not "\\"frontend\\""/],
      ['fr\\ontend evil', /^line 1 must start with an HAProxy keyword/],
      ['.if 0', /^line 1 must start with an HAProxy keyword/],
      ['server extra 10.0.0.9:80', /^line 1 declares servers \("server"\)/],
      ['default-server ssl verify none', /^line 1 declares servers/],
      ['http-response set-header X "${SECRET}"', /^line 1 expands an environment variable/],
      ['http-response set-header X ${SECRET}', /^line 1 expands an environment variable/],
      ['option httplog\r\nfrontend evil', /^contains the control character "\\r"/],
      ['option httplog\u0000', /^contains the control character "\\u0000"/],
      ['http-response\tset-header X y', /^contains the control character "\\t"/],
      [Array.from({ length: SNIPPET_LIMITS.lines + 1 }, () => 'option forwardfor').join('\n'), /^has 51 lines, more than 50/],
      [`http-response set-header X ${'y'.repeat(SNIPPET_LIMITS.lineLength)}`, /^line 1 is longer than 1000 characters/],
    ])
  })

  it('refuses writes to maps and ACL files, which other tenants’ routes are read from', () => {
    expectRefused([
      ['http-request set-map(maps/exact.map) %[req.hdr(x-key)] %[req.hdr(x-backend)]', notAllowed('set-map')],
      ['timeout server 30s\nhttp-response del-map(maps/prefix.map) %[req.hdr(x-key)]', notAllowed('del-map', 2)],
      ['http-request add-acl(maps/hosts.map) %[req.hdr(host)]', notAllowed('add-acl')],
      ['http-request del-acl(maps/hosts.map) %[req.hdr(host)]', notAllowed('del-acl')],
    ])
  })

  it('refuses reading files: answers from a file, error files, ACL patterns and maps from files', () => {
    expectRefused([
      ['http-request return status 200 content-type text/plain file tls/other_secret.pem', notAllowed('file')],
      ['http-request return content-type text/plain lf-file tls/other_secret.pem', notAllowed('lf-file')],
      ['http-request deny errorfile tls/other_secret.pem', notAllowed('errorfile')],
      ['http-request return errorfiles other', notAllowed('errorfiles')],
      ['errorfile 503 tls/other_secret.pem', notAllowed('errorfile')],
      ['errorloc 503 http://example.com/', notAllowed('errorloc')],
      ['acl leak req.hdr(x) -f tls/other_secret.pem', notAllowed('-f')],
      ['acl leak req.hdr(x) -M -f maps/exact.map', notAllowed('-M')],
      ['http-request set-header X %[req.hdr(x),map(maps/exact.map)]', notAllowed('map')],
      ['http-request set-header X %[path,map_beg(maps/prefix.map,none)]', notAllowed('map_beg')],
      // A word after the criterion that names a converter is one to HAProxy, not a pattern.
      ['acl leak req.hdr(x) map(tls/other_secret.pem) -m found', notAllowed('map')],
      ['acl leak req.hdr(x) lower map_str(maps/exact.map)', notAllowed('map_str')],
      ['http-request deny if { req.hdr(x) jwt_verify(RS256,tls/other_secret.pem) -m int 1 }', notAllowed('jwt_verify')],
    ])
  })

  it('refuses the environment, in a log-format string, an expression, a condition or double quotes', () => {
    expectRefused([
      ['http-request return status 200 content-type text/plain lf-string %[env(HAPEDGE_SECRET)]', notAllowed('env')],
      ['http-response set-header X-Leak %{+Q}[env(HOME)]', notAllowed('env')],
      ['http-response set-header X-Leak "home is %[env(HOME),lower]"', notAllowed('env')],
      ['http-request set-var(txn.leak) env(HOME)', notAllowed('env')],
      ['acl probe env(HOME) -m beg /root', notAllowed('env')],
      ['http-request deny if { env(HOME) -m beg /root }', notAllowed('env')],
      // HAProxy unescapes \x25 to "%" before it reads the log-format string.
      ['http-response set-header X-Leak \\x25[env(HOME)]', notAllowed('env')],
      // Even where HAProxy reads a string as it is, an expression in it is refused.
      ['http-request return content-type text/plain string %[env(HOME)]', notAllowed('env')],
      ['http-response set-header X-Leak "$HOME"', /^line 1: "\$" inside double quotes expands an environment variable/],
    ])
  })

  it('refuses the statistics page, Lua, services and other sections’ keywords', () => {
    expectRefused([
      ['stats admin if TRUE', notAllowed('stats')],
      ['timeout server 30s\nstats enable', notAllowed('stats', 2)],
      ['http-request lua.hello', notAllowed('lua.hello')],
      ['http-request use-service lua.hello', notAllowed('use-service')],
      ['http-response set-header X %[lua.secret]', notAllowed('lua.secret')],
      ['http-request send-spoe-group engine group', notAllowed('send-spoe-group')],
      ['tcp-request content accept', notAllowed('tcp-request')],
      ['use-server s1 if TRUE', notAllowed('use-server')],
      ['source 10.0.0.1', notAllowed('source')],
      ['log 127.0.0.1:514 local0', notAllowed('log')],
      ['filter compression', notAllowed('filter')],
      ['stick-table type ip size 1k', notAllowed('stick-table')],
      ['option external-check', notAllowed('external-check')],
      ['option transparent', notAllowed('transparent')],
      ['http-check connect addr 10.0.0.1 port 22', notAllowed('connect')],
      ['http-request track-sc0 src table other', notAllowed('track-sc0')],
      ['http-request set-dst 10.0.0.1', notAllowed('set-dst')],
      ['http-request do-resolve(txn.ip,dns) hdr(host)', notAllowed('do-resolve')],
      ['http-request cache-use other', notAllowed('cache-use')],
      ['balance hash req.hdr(x)', notAllowed('hash')],
    ])
  })

  it('refuses fetches and converters that read other backends, stick tables or shared variables', () => {
    expectRefused([
      ['acl down nbsrv(default_other_80) lt 1', notAllowed('nbsrv')],
      ['http-response set-header X %[srv_is_up(default_other_80/s1)]', notAllowed('srv_is_up')],
      ['http-response set-header X %[str(default_other_80),nbsrv]', notAllowed('nbsrv')],
      ['http-response set-header X %[src,table_conn_cnt(other)]', notAllowed('table_conn_cnt')],
      ['http-response set-header X %[hostname]', notAllowed('hostname')],
      ['http-response set-header X %[ssl_fc_session_key,hex]', notAllowed('ssl_fc_session_key')],
      ['http-response set-header X %[var(proc.secret)]', notAllowed('var(proc.secret)')],
      ['http-request set-var(proc.owner) src', notAllowed('proc.owner')],
      ['http-request set-var(sess.owner) src', notAllowed('sess.owner')],
      ['http-request set-header X %[int(1),add(proc.counter)]', notAllowed('proc.counter')],
      ['http-request set-header X %[str(a),concat(,sess.other,)]', notAllowed('sess.other')],
      ['http-request set-header X %[src,debug]', notAllowed('debug')],
      ['http-request set-var(txn.x) src,set-var(proc.y)', notAllowed('set-var')],
    ])
  })

  it('refuses what is malformed or left over, naming what was expected', () => {
    expectRefused([
      ['http-request set-header X-Only-Name', /^line 1: expected a value after "set-header"/],
      ['timeout server 30s 40s', notAllowed('40s')],
      ['timeout server soon', /^line 1: expected a time \(such as 30s or 500ms\) after "timeout", not "soon"/],
      ['retries many', /^line 1: expected a whole number after "retries", not "many"/],
      ['http-response set-path /x', notAllowed('set-path')],
      ['http-request set-status 200', notAllowed('set-status')],
      ['http-request deny when TRUE', notAllowed('when')],
      ['http-request deny if', /^line 1: expected a condition after "if" or "unless"/],
      ['http-request deny if { path_beg /x', /^line 1: expected "}" closing the anonymous ACL/],
      ['http-response set-header X "unterminated', /^line 1: a double quote is not closed/],
      ['http-response set-header X %[src', /^line 1: expected "]" closing the sample expression/],
      ['http-response set-header X %[str(a]', /^line 1: expected "\)" closing the arguments/],
      ['http-response set-header X "%[src lower]"', /^line 1: expected "," or the end of/],
      ['acl "bad name" src 10.0.0.1', notAllowed('bad name')],
    ])
  })
})
