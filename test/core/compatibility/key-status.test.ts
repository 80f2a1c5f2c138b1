import { describe, expect, it } from 'vitest'
import { RESTRICTIONS, SOURCE_HEADER_SUFFIX } from '../../../core/annotations/access.ts'
import { DOCUMENTED_KEYS, type DocumentedKey } from '../../../core/annotations/documented-keys.ts'
import { isSnippet } from '../../../core/annotations/snippets.ts'
import { spellingOf } from '../../../core/annotations/spellings.ts'
import { prefixOf } from '../../../core/annotations/vocabularies.ts'
import { keyStatus } from '../../../core/compatibility/key-status.ts'
import { restrictsAccessAnnotation } from '../../../core/compatibility/restricts-access.ts'

const keys = DOCUMENTED_KEYS.flatMap((controller) => controller.keys.map((key) => ({ controller, key })))
const judged = keys.map(({ key }) => keyStatus(key))

/** Whether the model reads a value of the key (so the table must judge it with a documented one). */
function readsValue({ annotation }: DocumentedKey): boolean {
  const found = prefixOf(annotation)!
  const { vocabularies, prefix } = found.prefix
  return (
    isSnippet(vocabularies, found.suffix) ||
    (vocabularies.includes('haproxytech') && found.suffix === SOURCE_HEADER_SUFFIX) ||
    vocabularies.some((vocabulary) => spellingOf(vocabulary, found.suffix) !== undefined) ||
    RESTRICTIONS.some((entry) => vocabularies.includes(entry.vocabulary) && (entry.suffix === found.suffix || entry.suffix === prefix + found.suffix))
  )
}

const key = (annotation: string, values: string[], companions: Record<string, string> = {}): DocumentedKey => ({ annotation, values, with: companions })

describe('the documented keys (core/annotations/documented-keys.ts)', () => {
  it('lists each key once, under one of its controller’s prefixes', () => {
    const annotations = keys.map(({ key }) => key.annotation)
    expect(annotations.filter((annotation, index) => annotations.indexOf(annotation) !== index)).toEqual([])
    const misplaced = keys.filter(({ controller, key }) => !controller.prefixes.some((prefix) => key.annotation.startsWith(prefix)))
    expect(misplaced.map(({ key }) => key.annotation)).toEqual([])
    for (const { key } of keys) expect(prefixOf(key.annotation)?.prefix.vocabularies, key.annotation).toBeDefined()
  })

  it('gives documented values for every key whose value the model reads (add them there when a spelling is added)', () => {
    const missing = keys.filter(({ key }) => key.values.length === 0 && readsValue(key)).map(({ key }) => key.annotation)
    expect(missing).toEqual([])
  })
})

describe('each documented key, judged through the engine', () => {
  it('is never silent: honoured, or a warning or a refusal says why', () => {
    expect(
      judged
        .filter((status) => status.status === 'silent' || status.values.some(({ outcome }) => outcome.status === 'silent'))
        .map((status) => status.annotation),
    ).toEqual([])
    expect(judged.filter((status) => status.status !== 'honoured' && status.reasons.length === 0).map((status) => status.annotation)).toEqual([])
  })

  it('refuses every documented value that restricts access and is not honoured', () => {
    const open = judged.flatMap(({ annotation, values }) =>
      values
        .filter(({ value, outcome }) => restrictsAccessAnnotation(annotation, value) && !['honoured', 'partly', 'refused'].includes(outcome.status))
        .map(({ value, outcome }) => `${annotation}: ${value}: ${outcome.status}`),
    )
    expect(open).toEqual([])
    expect(judged.some(({ annotation, values }) => values.some(({ value }) => restrictsAccessAnnotation(annotation, value)))).toBe(true)
  })

  it('is honoured when every value is, partly when only some are, with the values that are not named', () => {
    expect(keyStatus(key('nginx.ingress.kubernetes.io/auth-type', ['basic'], { 'nginx.ingress.kubernetes.io/auth-secret': 'users' }))).toMatchObject({
      status: 'honoured',
      reasons: [],
    })
    const partly = keyStatus(key('nginx.ingress.kubernetes.io/auth-type', ['basic', 'digest'], { 'nginx.ingress.kubernetes.io/auth-secret': 'users' }))
    expect(partly.status).toBe('partly')
    expect(partly.reasons).toEqual([expect.stringMatching(/^`digest`: refused \(.*"digest" must be "basic"/)])
  })

  it('says refused for access control and snippets, not supported with the reason, and not yet honoured for what the model reads but does not render', () => {
    expect(keyStatus(key('nginx.ingress.kubernetes.io/enable-modsecurity', ['true']))).toMatchObject({
      status: 'refused',
      reasons: [expect.stringContaining('web application firewall')],
    })
    // External authentication was refused: honoured now.
    expect(keyStatus(key('nginx.ingress.kubernetes.io/auth-url', ['https://auth.example.com/check'])).status).toBe('honoured')
    // NGINX snippets were refused: partly now, a vocabulary of directives (nginx-snippet.ts), whatever the documented values do.
    expect(keyStatus(key('nginx.ingress.kubernetes.io/configuration-snippet', ['more_set_headers "X: y";']))).toMatchObject({
      status: 'partly',
      reasons: [expect.stringContaining('a vocabulary of NGINX directives (more_set_headers,')],
    })
    expect(keyStatus(key('nginx.ingress.kubernetes.io/server-snippet', ['set $agentflag 0;'])).reasons).toEqual([
      expect.stringContaining('a vocabulary of NGINX directives'),
      expect.stringMatching(/^`set \$agentflag 0;`: refused \(.*directive 1 \(line 1, "set"\) is not in hapedge's vocabulary/),
    ])
    expect(keyStatus(key('haproxy.org/backend-config-snippet', ['http-send-name-header x'])).status).toBe('refused')
    expect(keyStatus(key('nginx.ingress.kubernetes.io/limit-rate', []))).toMatchObject({
      status: 'not supported',
      reasons: [expect.stringContaining('bandwidth')],
    })
    // Rate limits were "not supported": honoured now, and NGINX Inc.'s where they map (limit-req-rate), not its burst.
    expect(keyStatus(key('nginx.ingress.kubernetes.io/limit-rps', ['5'])).status).toBe('honoured')
    expect(keyStatus(key('nginx.org/limit-req-rate', ['10r/s'])).status).toBe('honoured')
    expect(keyStatus(key('nginx.org/limit-req-burst', []))).toMatchObject({ status: 'not supported', reasons: [expect.stringContaining('without a burst')] })
    // Canary Ingresses were refused as route conflicts ("not supported"): honoured now, a pattern of the safe subset only (safe-regex.ts).
    expect(keyStatus(key('nginx.ingress.kubernetes.io/canary', ['true'])).status).toBe('honoured')
    expect(
      keyStatus({
        annotation: 'nginx.ingress.kubernetes.io/canary-by-header-pattern',
        values: ['^(a|b)$', 'a.*', '(a+)+'],
        with: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': 'X' },
      }),
    ).toMatchObject({ status: 'partly', reasons: [expect.stringMatching(/^`\(a\+\)\+`: not supported .*catastrophic backtracking.*no regular expression/)] })
    // custom-headers was the last feature read and not rendered: honoured now, from its ConfigMap.
    expect(keyStatus(key('nginx.ingress.kubernetes.io/custom-headers', ['default/custom-headers'])).status).toBe('honoured')
  })
})
