/**
 * The controllers whose annotations hapedge reads, the prefixes each answers to, and the document
 * each mapping was taken from. The order of PREFIXES is the precedence: when two spellings of one
 * feature are both present, the earlier prefix wins (and the other gives a warning naming both).
 * hapedge's own comes first; then ingress-nginx, the controller most migrations leave; then the two
 * HAProxy controllers, each under its own prefix before the prefix they share; NGINX Inc.'s last.
 */
export type Vocabulary = 'hapedge' | 'ingress-nginx' | 'haproxy-ingress' | 'haproxytech' | 'nginx-inc'

export interface Prefix {
  prefix: string
  /** Who reads keys under it, first the one whose meaning wins when both document a key. */
  vocabularies: readonly Vocabulary[]
}

export const PREFIXES: readonly Prefix[] = [
  { prefix: 'hapedge.io/', vocabularies: ['hapedge'] },
  { prefix: 'nginx.ingress.kubernetes.io/', vocabularies: ['ingress-nginx'] },
  { prefix: 'haproxy-ingress.github.io/', vocabularies: ['haproxy-ingress'] },
  { prefix: 'haproxy.org/', vocabularies: ['haproxytech'] },
  // haproxytech/kubernetes-ingress documentation/annotations.md: "Ingress and service annotations can have
  // `ingress.kubernetes.io`, `haproxy.org` and `haproxy.com` prefixes".
  { prefix: 'haproxy.com/', vocabularies: ['haproxytech'] },
  // haproxy-ingress keys.md, Annotation: "`ingress.kubernetes.io` is also supported for backward compatibility";
  // haproxytech reads it too (above). haproxy-ingress's meaning wins: it is that controller's own former prefix.
  { prefix: 'ingress.kubernetes.io/', vocabularies: ['haproxy-ingress', 'haproxytech'] },
  { prefix: 'nginx.org/', vocabularies: ['nginx-inc'] },
  // advanced-configuration-with-annotations.md: "Annotations that start with `nginx.com` are only supported with NGINX Plus".
  { prefix: 'nginx.com/', vocabularies: ['nginx-inc'] },
]

/** Where each controller documents its annotations (the stored copies the mappings were read from). */
export const DOCS: Record<Vocabulary, string> = {
  hapedge: 'hapedge README, "Annotations" (issue 20)',
  'ingress-nginx':
    'https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/annotations/ (kubernetes/ingress-nginx docs/user-guide/nginx-configuration/annotations.md and annotations-risk.md)',
  'haproxy-ingress': 'https://haproxy-ingress.github.io/docs/configuration/keys/ (jcmoraisjr/haproxy-ingress docs/content/en/docs/configuration/keys.md)',
  haproxytech: 'https://github.com/haproxytech/kubernetes-ingress/blob/master/documentation/annotations.md',
  'nginx-inc':
    'https://docs.nginx.com/nginx-ingress-controller/configuration/ingress-resources/advanced-configuration-with-annotations/ (nginx/documentation content/nic/…/advanced-configuration-with-annotations.md)',
}

export const CONTROLLER_NAMES: Record<Vocabulary, string> = {
  hapedge: 'hapedge',
  'ingress-nginx': 'ingress-nginx',
  'haproxy-ingress': 'HAProxy Ingress (jcmoraisjr)',
  haproxytech: 'HAProxy Kubernetes Ingress Controller (haproxytech)',
  'nginx-inc': 'NGINX Ingress Controller (F5 NGINX)',
}

/** The prefix a key is under, with its place in the precedence; undefined for other controllers' keys. */
export function prefixOf(key: string): { prefix: Prefix; rank: number; suffix: string } | undefined {
  const rank = PREFIXES.findIndex(({ prefix }) => key.startsWith(prefix))
  if (rank < 0) return undefined
  const prefix = PREFIXES[rank]!
  return { prefix, rank, suffix: key.slice(prefix.prefix.length) }
}
