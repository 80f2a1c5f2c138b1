import { DOCUMENTED_KEYS } from '../annotations/documented-keys.ts'
import { spellingOf } from '../annotations/spellings.ts'
import { prefixOf } from '../annotations/vocabularies.ts'

/**
 * Each controller's documented keys, as the annotations they may be written as: a controller whose
 * keys are listed under one prefix reads them under each of its prefixes (haproxytech's `haproxy.org/`,
 * `haproxy.com/`, `ingress.kubernetes.io/`); one that lists keys under several (NGINX Inc.'s
 * `nginx.com/` keys are NGINX Plus only) documents each under its own.
 */
const DOCUMENTED = new Set(
  DOCUMENTED_KEYS.flatMap(({ prefixes, keys }) => {
    const listedUnder = prefixes.filter((prefix) => keys.some(({ annotation }) => annotation.startsWith(prefix)))
    if (listedUnder.length !== 1) return keys.map(({ annotation }) => annotation)
    return keys.flatMap(({ annotation }) => prefixes.map((prefix) => prefix + annotation.slice(listedUnder[0]!.length)))
  }),
)

/**
 * Whether some controller documents the annotation (documented-keys.ts; for hapedge.io/, a feature
 * of hapedge's own). A key no controller documents (`nginx.org/bad`, a validation fixture's) can be
 * honoured by none: the corpus figures count the Ingresses it alone holds back apart.
 */
export function documentedAnnotation(annotation: string): boolean {
  const found = prefixOf(annotation)
  if (!found) return false
  if (found.prefix.vocabularies.includes('hapedge')) return spellingOf('hapedge', found.suffix) !== undefined
  return DOCUMENTED.has(annotation)
}
