import { describe, expect, it } from 'vitest'
import { readNginxDirectives } from '../../../core/annotations/nginx-directives.ts'
import { translateNginxSnippet } from '../../../core/annotations/nginx-snippet.ts'
import { readAnnotations } from '../../../core/annotations/read-annotations.ts'
import { readHeaders } from '../../../core/model/header-rules.ts'

describe('NGINX directives as NGINX reads them', () => {
  it('splits words, quotes, escapes, comments and lines', () => {
    expect(readNginxDirectives('# a comment\nadd_header X-A "a b; c" always;\n  more_set_headers \'X-B: it\\\'s\' "X-C: \\"q\\"";')).toEqual([
      { name: 'add_header', args: ['X-A', 'a b; c', 'always'], index: 1, line: 2 },
      { name: 'more_set_headers', args: ["X-B: it's", 'X-C: "q"'], index: 2, line: 3 },
    ])
    expect(readNginxDirectives('add_header X a#b;')).toEqual([{ name: 'add_header', args: ['X', 'a#b'], index: 1, line: 1 }])
  })

  it('refuses blocks, open quotes and a directive without ";", naming the line', () => {
    expect(readNginxDirectives('add_header X y;\nlocation / { return 302 /; }')).toEqual({ refused: expect.stringMatching(/^line 2: a block/) })
    expect(readNginxDirectives('add_header X "y;')).toEqual({ refused: expect.stringMatching(/^line 1: a " quote is not closed/) })
    expect(readNginxDirectives('add_header X y')).toEqual({ refused: 'line 1: "add_header" is not ended by ";"' })
  })
})

describe('an NGINX snippet through hapedge’s vocabulary', () => {
  it('translates header directives into the header features, a variable as the whole value', () => {
    const translated = translateNginxSnippet(
      [
        'more_set_headers "Request-Id: $req_id" "X-Frame-Options: DENY" "X-Gone:";',
        'more_clear_headers Server X-Powered-By;',
        'proxy_set_header X-Host ${host};',
        'proxy_set_header X-Empty "";',
        'more_set_input_headers "X-Client: $remote_addr";',
        'more_clear_input_headers Cookie;',
        'proxy_hide_header X-Internal;',
        'add_header X-Scheme $scheme always;',
        'proxy_ssl_verify on;',
      ].join('\n'),
      'location',
    )
    expect(translated).toEqual({
      features: {
        'response-set-header': [
          { name: 'Request-Id', value: '', variable: 'req_id' },
          { name: 'X-Frame-Options', value: 'DENY' },
        ],
        'response-del-header': ['X-Gone', 'Server', 'X-Powered-By', 'X-Internal'],
        'request-set-header': [
          { name: 'X-Host', value: '', variable: 'host' },
          { name: 'X-Client', value: '', variable: 'remote_addr' },
        ],
        'request-del-header': ['X-Empty', 'Cookie'],
        'response-add-header': [{ name: 'X-Scheme', value: '', variable: 'scheme' }],
        'proxy-ssl-verify': true,
      },
      warnings: [],
    })
  })

  it.each([
    ['proxy_cache_valid 200 1m;', /^directive 1 \(line 1, "proxy_cache_valid"\) is not in hapedge's vocabulary \(more_set_headers, /],
    ['add_header X y always;\nrewrite ^ /x;', /^directive 2 \(line 2, "rewrite"\) is not in/],
    ['more_set_headers -s 404 "X: y";', /^directive 1 .*: its option -s is not translated/],
    ['more_clear_headers "X-Hidden-*";', /wildcards are not translated/],
    ['proxy_set_header X-A "id=$req_id";', /mixes text and variables/],
    ['proxy_set_header X-A $http_cookie;', /\$http_cookie is not a variable hapedge fills in \(\$req_id, \$host, \$remote_addr, \$scheme\)/],
    ['proxy_set_header "X A" b;', /"X A" is not a header name/],
    ['add_header X y sometimes;', /its third argument must be "always"/],
    ['proxy_ssl_verify maybe;', /must be "on" or "off"/],
    ['proxy_set_header X;', /it takes 2 arguments, not 1/],
    ['', /holds no directive/],
  ])('refuses the whole snippet %j, naming the directive', (text, reason) => {
    expect(translateNginxSnippet(text, 'location')).toEqual({ refused: expect.stringMatching(reason) })
  })

  it('says where the translation differs from NGINX: add_header without always, a server snippet’s headers', () => {
    expect(translateNginxSnippet('add_header X-A a;', 'location')).toMatchObject({ warnings: [expect.stringContaining('only to answers 200, 201')] })
    expect(translateNginxSnippet('more_set_headers "X-A: a";\nproxy_ssl_verify off;', 'server')).toMatchObject({
      features: { 'proxy-ssl-verify': false },
      warnings: [expect.stringMatching(/^directive 1 .*every Ingress of the host; hapedge to this Ingress's routes$/)],
    })
  })
})

describe('a translated snippet read with the annotations', () => {
  it('gives the same features as the annotations, honoured from the snippet', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "Request-Id: $req_id";' })
    expect(reading.features).toEqual({ 'response-set-header': [{ name: 'Request-Id', value: '', variable: 'req_id' }] })
    expect(reading.honoured).toEqual(['nginx.ingress.kubernetes.io/configuration-snippet'])
    expect(reading.warnings).toEqual([])
  })

  it('comes after an annotation of its prefix that disagrees, which wins and names it', () => {
    const reading = readAnnotations({
      'nginx.ingress.kubernetes.io/proxy-ssl-verify': 'on',
      'nginx.ingress.kubernetes.io/server-snippet': 'proxy_ssl_verify off;',
    })
    expect(reading.features['proxy-ssl-verify']).toBe(true)
    expect(reading.warnings).toEqual([
      {
        annotation: 'nginx.ingress.kubernetes.io/server-snippet',
        reason: expect.stringContaining('disagrees with nginx.ingress.kubernetes.io/proxy-ssl-verify'),
      },
    ])
  })

  it('adds its headers to an annotation’s list of the same feature; a name both set is the annotation’s, and the snippet’s is named', () => {
    const reading = readAnnotations({
      'hapedge.io/response-set-header': 'X-A a',
      'hapedge.io/request-del-header': 'Cookie',
      'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-A: b" "X-B: c";\nmore_clear_input_headers Authorization;',
    })
    expect(reading.features['response-set-header']).toEqual([
      { name: 'X-A', value: 'a' },
      { name: 'X-B', value: 'c' },
    ])
    expect(reading.features['request-del-header']).toEqual(['Cookie', 'Authorization'])
    expect(reading.readFrom['response-set-header']).toEqual(['hapedge.io/response-set-header', 'nginx.ingress.kubernetes.io/configuration-snippet'])
    expect(reading.warnings).toEqual([
      {
        annotation: 'nginx.ingress.kubernetes.io/configuration-snippet',
        reason: 'x-a: also set by hapedge.io/response-set-header, which takes precedence; ignored',
      },
    ])
  })

  it('refuses the Ingress for an access directive, before any translation', () => {
    const reading = readAnnotations({ 'nginx.org/location-snippets': 'add_header X y always;\ndeny all;' })
    expect(reading.refusals).toEqual([{ annotation: 'nginx.org/location-snippets', reason: expect.stringContaining('(deny)') }])
    expect(reading.features).toEqual({})
  })

  it('makes one rule per header, a variable named in it; a name set again keeps only the last', () => {
    const reading = readAnnotations({
      'nginx.ingress.kubernetes.io/configuration-snippet':
        'more_set_headers "X-Id: $req_id" "X-Id: fixed";\nadd_header X-A $host always;\nadd_header X-A b always;',
    })
    const { headers, notices } = readHeaders(reading.features, () => ['nginx.ingress.kubernetes.io/configuration-snippet'])
    expect(headers).toEqual([
      { rule: 'res-set|x-id', value: 'fixed' },
      { rule: 'res-add|x-a|host', value: '' },
      { rule: 'res-add|x-a|2', value: 'b' },
    ])
    expect(notices).toEqual([{ annotation: 'nginx.ingress.kubernetes.io/configuration-snippet', reason: expect.stringContaining('set more than once') }])
  })
})
