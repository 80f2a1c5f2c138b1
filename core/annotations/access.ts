import type { Vocabulary } from './vocabularies.ts'

/**
 * Everything in the four controllers' documentation that restricts who may reach an Ingress's routes
 * and that hapedge cannot honour (yet). Such an annotation refuses the Ingress: its routes answer 503
 * with a reason instead of being served open. What hapedge does honour (basic authentication, the
 * allow and deny lists, external authentication) is in spellings.ts; a value of those it cannot read refuses the Ingress too
 * (features.ts, `restrictsAccess`). Other controllers' raw snippets are in snippets.ts.
 *
 * The list is complete against each controller's page (DOCS in vocabularies.ts), by group:
 * - ingress-nginx (annotations-risk.md): BasicDigestAuth `auth-type: digest` (features.ts);
 *   CertificateAuth is honoured (`auth-tls-secret`, `auth-tls-verify-client`, `auth-tls-error-page`,
 *   `auth-tls-pass-certificate-to-upstream`, `auth-tls-verify-depth`, `auth-tls-match-cn`: client-cert.ts); Satisfy `satisfy: any`; ModSecurity `enable-modsecurity`, `enable-owasp-core-rules`.
 *   ExternalAuth is honoured (external-auth.ts): an `auth-url` hapedge cannot read refuses the Ingress;
 *   `auth-snippet` is a snippet (snippets.ts); `auth-cache-key` and the others not read warn.
 *   Rate limits protect the backend from load; they do not decide who may enter: those honoured
 *   (`limit-rps`, `limit-rpm`, `limit-connections`, …: route-limits.ts) are no restriction, and the
 *   others (`limit-rate`, `global-rate-limit*`) warn (unsupported.ts).
 * - haproxy-ingress (keys.md): Auth External is honoured (as ingress-nginx's); OAuth `oauth`; Auth TLS
 *   is honoured (client-cert.ts) but for `auth-tls-cert-header` and `auth-tls-strict`, which warn; WAF `waf`; a `file://` `auth-secret`
 *   (spellings.ts). Limit (`limit-rps`, …) is honoured, as above.
 * - haproxytech (annotations.md): Authentication `auth-type` other than `basic-auth` (spellings.ts),
 *   `client-ca`; Access Control pattern files (spellings.ts); `src-ip-header`, which changes the
 *   address the lists check (refused with a list, readAnnotations). Rate Limit is honoured, as above.
 * - NGINX Inc. (advanced-configuration-with-annotations.md): `nginx.org/policies` (Policy resources:
 *   access control, JWT, OIDC, API keys, mTLS, WAF), `nginx.com/jwt-key` (and its `jwt-*`
 *   companions, refused with it). `nginx.org/limit-req-rate` is honoured, the other `limit-req-*` warn.
 */
interface Restriction {
  vocabulary: Vocabulary
  /** The key without its prefix; for NGINX Inc. with it, as nginx.org/ and nginx.com/ keys differ. */
  suffix: string
  reason: string
  /** When the value decides: the annotation restricts only for these values (lower-cased). */
  unlessValue?: readonly string[]
  onlyValue?: readonly string[]
}

const CLIENT_CERTIFICATES = "haproxytech's client-ca (mTLS) is not read by hapedge: hapedge.io/auth-tls-secret names a CA bundle per host"
const WAF = 'a web application firewall is not available in hapedge'

export const RESTRICTIONS: readonly Restriction[] = [
  {
    vocabulary: 'ingress-nginx',
    suffix: 'satisfy',
    reason: 'satisfy "any" (either the source ranges or authentication) is not implemented',
    onlyValue: ['any'],
  },
  { vocabulary: 'ingress-nginx', suffix: 'enable-modsecurity', reason: WAF, onlyValue: ['true'] },
  { vocabulary: 'ingress-nginx', suffix: 'enable-owasp-core-rules', reason: WAF, onlyValue: ['true'] },
  { vocabulary: 'haproxy-ingress', suffix: 'oauth', reason: 'OAuth through oauth2-proxy is not implemented by hapedge' },
  { vocabulary: 'haproxy-ingress', suffix: 'waf', reason: WAF },
  { vocabulary: 'haproxytech', suffix: 'client-ca', reason: CLIENT_CERTIFICATES },
  {
    vocabulary: 'nginx-inc',
    suffix: 'nginx.org/policies',
    reason: 'NGINX Policy resources (access control, JWT, OIDC, API keys, mTLS, WAF) are not read by hapedge',
  },
  { vocabulary: 'nginx-inc', suffix: 'nginx.com/jwt-key', reason: 'JSON Web Token validation is not implemented by hapedge' },
  { vocabulary: 'nginx-inc', suffix: 'nginx.com/jwt-realm', reason: 'JSON Web Token validation is not implemented by hapedge' },
  { vocabulary: 'nginx-inc', suffix: 'nginx.com/jwt-token', reason: 'JSON Web Token validation is not implemented by hapedge' },
  { vocabulary: 'nginx-inc', suffix: 'nginx.com/jwt-login-url', reason: 'JSON Web Token validation is not implemented by hapedge' },
]

/** haproxytech's `src-ip-header`: which header holds the client's address (annotations.md, Src Ip Header). */
export const SOURCE_HEADER_SUFFIX = 'src-ip-header'

/** The reason an annotation restricts access in a way hapedge cannot honour, or undefined. */
export function unhonouredRestriction(vocabularies: readonly Vocabulary[], prefix: string, suffix: string, value: string): string | undefined {
  const lower = value.trim().toLowerCase()
  const found = RESTRICTIONS.find(
    (entry) =>
      vocabularies.includes(entry.vocabulary) &&
      (entry.vocabulary === 'nginx-inc' ? entry.suffix === prefix + suffix : entry.suffix === suffix) &&
      !(entry.unlessValue?.includes(lower) ?? false) &&
      (entry.onlyValue?.includes(lower) ?? true),
  )
  return found?.reason
}
