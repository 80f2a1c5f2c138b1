import type { SnippetScope } from './nginx-snippet.ts'
import type { Vocabulary } from './vocabularies.ts'

/**
 * Other controllers' raw configuration snippets: text for NGINX or HAProxy that their controller
 * pastes into its configuration. hapedge never passes them on (nor its own Service snippets, which an
 * operator allows per cluster). NGINX's location and server snippets are translated through a
 * closed vocabulary (nginx-snippet.ts); the rest, and any snippet the vocabulary does not cover,
 * are refused with a warning; one whose text restricts access (`auth_request`, `deny`,
 * `http-request auth`…) refuses the Ingress, since serving the routes without it would open them.
 */
const SNIPPETS: Record<Exclude<Vocabulary, 'hapedge'>, readonly string[]> = {
  // annotations-risk.md: ConfigurationSnippet, ServerSnippet, StreamSnippet, ModSecurity, ExternalAuth groups.
  'ingress-nginx': ['configuration-snippet', 'server-snippet', 'auth-snippet', 'modsecurity-snippet', 'stream-snippet'],
  // keys.md, Configuration snippet: config-backend and config-tcp-service are Ingress keys, the rest Global.
  'haproxy-ingress': [
    'config-backend',
    'config-defaults',
    'config-frontend',
    'config-global',
    'config-proxy',
    'config-sections',
    'config-tcp',
    'config-tcp-service',
  ],
  // annotations.md, Config Snippet; route-acl is an in-line HAProxy ACL (Route Acl).
  haproxytech: ['backend-config-snippet', 'frontend-config-snippet', 'global-config-snippet', 'stats-config-snippet', 'route-acl'],
  // advanced-configuration-with-annotations.md, Snippets and custom templates.
  'nginx-inc': ['location-snippets', 'server-snippets'],
}

export function isSnippet(vocabularies: readonly Vocabulary[], suffix: string): boolean {
  return vocabularies.some((vocabulary) => vocabulary !== 'hapedge' && SNIPPETS[vocabulary].includes(suffix))
}

/** The NGINX snippets translated through hapedge's vocabulary (nginx-snippet.ts), and the block NGINX pastes each into. */
const TRANSLATED: Partial<Record<Vocabulary, Readonly<Record<string, SnippetScope>>>> = {
  'ingress-nginx': { 'configuration-snippet': 'location', 'server-snippet': 'server' },
  'nginx-inc': { 'location-snippets': 'location', 'server-snippets': 'server' },
}

/** Where NGINX pastes a snippet hapedge translates (undefined: a snippet it only refuses). */
export function translatedSnippetScope(vocabularies: readonly Vocabulary[], suffix: string): SnippetScope | undefined {
  for (const vocabulary of vocabularies) {
    const scope = TRANSLATED[vocabulary]?.[suffix]
    if (scope !== undefined) return scope
  }
  return undefined
}

/** NGINX directives and HAProxy rules that decide who may pass. */
const ACCESS_DIRECTIVES: readonly RegExp[] = [
  /(?:^|[\s;{}])(auth_request|auth_basic|auth_jwt|satisfy)\s/,
  /(?:^|[\s;{}])(allow|deny)\s+[^;\s]+\s*;/,
  /\b(http-request\s+(?:deny|auth|reject|tarpit|silent-drop))\b/,
  /\b(tcp-request\s+\S+\s+reject)\b/,
  /\b(http_auth(?:_group)?)\s*\(/,
]

/** The access directive a snippet contains (`auth_request`, `http-request deny`…), if any. */
export function accessDirectiveIn(snippet: string): string | undefined {
  for (const pattern of ACCESS_DIRECTIVES) {
    const match = pattern.exec(snippet)
    if (match) return match[1]!.replace(/\s+/g, ' ')
  }
  return undefined
}
