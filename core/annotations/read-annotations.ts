import { formatPath } from '../issues.ts'
import { quote } from '../kube/fields.ts'
import { SOURCE_HEADER_SUFFIX, unhonouredRestriction } from './access.ts'
import { type FeatureName, type Features, restrictsAccess } from './features.ts'
import { accessDirectiveIn, isSnippet } from './snippets.ts'
import { type Sibling, type Spelling, spellingOf, spellingRank } from './spellings.ts'
import { unsupportedReason } from './unsupported.ts'
import { type Prefix, prefixOf } from './vocabularies.ts'

/** One annotation hapedge does not honour as written, and why. */
export interface AnnotationNotice {
  annotation: string
  reason: string
}

export interface AnnotationReading {
  /** What the annotations ask for, typed. */
  features: Features
  /** The annotation each feature was read from (`… (implied)` when another annotation implies it). */
  sources: { [F in FeatureName]?: string }
  /** Every annotation read into a feature: each feature's source, and the spellings that agree with it. */
  honoured: string[]
  /** Annotations not honoured, or honoured differently from how they are written: the Ingress is served. */
  warnings: AnnotationNotice[]
  /** Annotations that restrict access in a way hapedge cannot honour: the Ingress must not be served open. */
  refusals: AnnotationNotice[]
}

interface Candidate {
  key: string
  rank: number
  spelling: Spelling
  value: unknown
  sibling: Sibling
}

/** `metadata.annotations["nginx.ingress.kubernetes.io/ssl-redirect"]`, the field path errors name. */
export const annotationPath = (key: string) => formatPath(['metadata', 'annotations', key])

/**
 * Reads an Ingress's annotations under the known prefixes (vocabularies.ts) into the typed model.
 * Keys under other prefixes (`kubernetes.io/ingress.class`, `cert-manager.io/…`) are none of its
 * business and are skipped. Pure: the Secrets and ConfigMaps named are read by the engine.
 */
export function readAnnotations(annotations: Readonly<Record<string, string>>): AnnotationReading {
  const warnings: AnnotationNotice[] = []
  const refusals: AnnotationNotice[] = []
  const candidates = new Map<FeatureName, Candidate[]>()
  const known = Object.keys(annotations)
    .sort()
    .flatMap((key) => {
      const found = prefixOf(key)
      return found ? [{ key, value: annotations[key]!, ...found }] : []
    })

  for (const { key, value, prefix, rank, suffix } of known) {
    const { vocabularies } = prefix
    if (isSnippet(vocabularies, suffix)) {
      const directive = accessDirectiveIn(value)
      if (directive)
        refusals.push({
          annotation: key,
          reason: `a raw configuration snippet that restricts access (${directive}); hapedge never runs other controllers' snippets, so the routes are refused rather than served open`,
        })
      else warnings.push({ annotation: key, reason: 'a raw configuration snippet: refused, never passed on to HAProxy' })
      continue
    }
    const restriction = unhonouredRestriction(vocabularies, prefix.prefix, suffix, value)
    if (restriction) {
      refusals.push({ annotation: key, reason: `${restriction}, so the routes are refused rather than served open` })
      continue
    }
    const spelling = vocabularies.map((vocabulary) => spellingOf(vocabulary, suffix)).find((found) => found !== undefined)
    if (!spelling) {
      if (!(vocabularies.includes('haproxytech') && suffix === SOURCE_HEADER_SUFFIX))
        warnings.push({ annotation: key, reason: unsupportedReason(prefix, suffix) })
      continue
    }
    const sibling: Sibling = (name) => annotations[prefix.prefix + name]
    const parsed = spelling.schema(sibling).safeParse(value)
    if (!parsed.success) {
      const notice = { annotation: key, reason: `${annotationPath(key)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}` }
      if (restrictsAccess(spelling.feature))
        refusals.push({ ...notice, reason: `${notice.reason}; it restricts access, so the routes are refused rather than served open` })
      else warnings.push({ ...notice, reason: `${notice.reason}; ignored` })
      continue
    }
    const list = candidates.get(spelling.feature) ?? []
    candidates.set(spelling.feature, [...list, { key, rank, spelling, value: parsed.data, sibling }])
  }

  const features: Record<string, unknown> = {}
  const sources: Record<string, string> = {}
  const winners: Candidate[] = []
  const honoured: string[] = []
  for (const [feature, list] of candidates) {
    const [winner, ...others] = [...list].sort((a, b) => a.rank - b.rank || spellingRank(a.spelling) - spellingRank(b.spelling))
    features[feature] = winner!.value
    sources[feature] = winner!.key
    winners.push(winner!)
    honoured.push(winner!.key)
    for (const other of others)
      if (canonical(other.value) === canonical(winner!.value)) honoured.push(other.key)
      else warnings.push({ annotation: other.key, reason: `disagrees with ${winner!.key} (${describe(winner!.value)}), which takes precedence; ignored` })
  }
  for (const winner of winners)
    for (const [feature, value] of Object.entries(winner.spelling.implies?.(winner.value, winner.sibling) ?? {}))
      if (!(feature in features)) {
        features[feature] = value
        sources[feature] = `${winner.key} (implied)`
      }

  checkAuthentication(features, sources, warnings, refusals)
  checkSourceHeader(known, features, warnings, refusals)
  const byKey = (a: AnnotationNotice, b: AnnotationNotice) => (a.annotation < b.annotation ? -1 : a.annotation > b.annotation ? 1 : 0)
  return { features: features as Features, sources, honoured: honoured.sort(), warnings: warnings.sort(byKey), refusals: refusals.sort(byKey) }
}

/**
 * Basic authentication needs a method and a Secret. A method without a Secret could check nobody:
 * refused. A Secret without a method is ignored by ingress-nginx and haproxytech, which then serve
 * the routes open; hapedge checks it instead (never open) and says so.
 */
function checkAuthentication(features: Record<string, unknown>, sources: Record<string, string>, warnings: AnnotationNotice[], refusals: AnnotationNotice[]) {
  const type = sources['auth-type']
  const secret = sources['auth-secret']
  if (type && !secret) {
    refusals.push({
      annotation: type.replace(/ \(implied\)$/, ''),
      reason: 'basic authentication without auth-secret: no user could be checked, so the routes are refused',
    })
    delete features['auth-type']
    delete sources['auth-type']
  } else if (secret && !type) {
    features['auth-type'] = 'basic'
    sources['auth-type'] = `${secret} (implied)`
    warnings.push({
      annotation: secret,
      reason: 'auth-secret without auth-type: its controller would not check it; hapedge checks basic authentication against it',
    })
  }
}

/**
 * haproxytech's `src-ip-header` makes the source lists check a header's address. Without it hapedge
 * would check the connection's address, the proxy in front: a list that admits the proxy would then
 * admit everyone. With a source list it is refused; alone it only warns.
 */
function checkSourceHeader(
  known: { key: string; prefix: Prefix; suffix: string }[],
  features: Record<string, unknown>,
  warnings: AnnotationNotice[],
  refusals: AnnotationNotice[],
) {
  for (const { key, prefix, suffix } of known) {
    if (!prefix.vocabularies.includes('haproxytech') || suffix !== SOURCE_HEADER_SUFFIX) continue
    const lists = 'allowlist-source-range' in features || 'denylist-source-range' in features
    const reason = 'taking the client address from a request header is not supported (X-Forwarded-For is trusted only from configured proxies)'
    if (lists) refusals.push({ annotation: key, reason: `${reason}; the source ranges would check the proxy's address instead, so the routes are refused` })
    else warnings.push({ annotation: key, reason })
  }
}

/** A typed value as one comparable string: objects with their keys in order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  )
}

const describe = (value: unknown) => quote(typeof value === 'string' ? value : canonical(value))
