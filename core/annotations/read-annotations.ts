import { z } from 'zod'
import { formatPath } from '../issues.ts'
import { quote } from '../syntax/fields.ts'
import { SOURCE_HEADER_SUFFIX, unhonouredRestriction } from './access.ts'
import { type FeatureName, type Features, restrictsAccess } from './features.ts'
import { accessDirectiveIn, isSnippet, translatedSnippetScope } from './snippets.ts'
import { type SnippetTranslation, translateNginxSnippet } from './nginx-snippet.ts'
import { isHeaderList, mergeHeaderLists } from './snippet-merge.ts'
import type { Header } from './values.ts'
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
  /** The same, by feature: the annotations each feature was read from (none for a feature only implied). */
  readFrom: { [F in FeatureName]?: string[] }
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
  /** Read from a translated NGINX snippet: its header lists add up with the other spellings' (snippet-merge.ts). */
  snippet?: true
}

/** `metadata.annotations["nginx.ingress.kubernetes.io/ssl-redirect"]`, the field path errors name. */
export const annotationPath = (key: string) => formatPath(['metadata', 'annotations', key])

/** Notices in the order of their annotations (at module level: tsx names a closure each time it is made, see core/model/tell-notices.ts). */
const byKey = (a: AnnotationNotice, b: AnnotationNotice) => (a.annotation < b.annotation ? -1 : a.annotation > b.annotation ? 1 : 0)

/**
 * Reads an Ingress's annotations under the known prefixes (vocabularies.ts) into the typed model.
 * Keys under other prefixes (`kubernetes.io/ingress.class`, `cert-manager.io/…`) are none of its
 * business and are skipped. Pure: the Secrets and ConfigMaps named are read by the engine.
 */
export function readAnnotations(annotations: Readonly<Record<string, string>>): AnnotationReading {
  const notices: Notices = { warnings: [], refusals: [] }
  const candidates = new Map<FeatureName, Candidate[]>()
  const known = Object.keys(annotations)
    .sort()
    .flatMap((key) => {
      const found = prefixOf(key)
      return found ? [{ key, value: annotations[key]!, ...found }] : []
    })
  // No annotation under a prefix hapedge reads (most Ingresses): nothing to resolve, check or tell.
  if (known.length === 0) return NOTHING_READ
  for (const entry of known)
    for (const candidate of readOne(entry, (name) => annotations[entry.prefix.prefix + name], notices))
      candidates.set(candidate.spelling.feature, [...(candidates.get(candidate.spelling.feature) ?? []), candidate])
  const { features, sources, honoured, readFrom } = resolve(candidates, notices)
  checkAuthentication(features, sources, notices)
  checkSourceHeader(known, features, notices)
  return {
    features: features as Features,
    sources,
    honoured: honoured.sort(),
    readFrom,
    warnings: notices.warnings.sort(byKey),
    refusals: notices.refusals.sort(byKey),
  }
}

/** The reading of annotations none of which hapedge reads: shared by every such Ingress, so frozen. */
const NOTHING_READ: AnnotationReading = Object.freeze({
  features: Object.freeze({}),
  sources: Object.freeze({}),
  honoured: Object.freeze([]) as never[],
  readFrom: Object.freeze({}),
  warnings: Object.freeze([]) as never[],
  refusals: Object.freeze([]) as never[],
})

interface Notices {
  warnings: AnnotationNotice[]
  refusals: AnnotationNotice[]
}

interface KnownAnnotation {
  key: string
  value: string
  prefix: Prefix
  rank: number
  suffix: string
}

/** One annotation, in this order: a raw snippet, an unhonoured restriction, a feature's value, or unsupported; a translated snippet gives several features. */
function readOne(known: KnownAnnotation, sibling: Sibling, notices: Notices): Candidate[] {
  const { key, value, prefix, suffix } = known
  const { warnings, refusals } = notices
  const { vocabularies } = prefix
  if (isSnippet(vocabularies, suffix)) {
    const directive = accessDirectiveIn(value)
    const scope = translatedSnippetScope(vocabularies, suffix)
    if (directive)
      refusals.push({
        annotation: key,
        reason: `a raw configuration snippet that restricts access (${directive}); hapedge never runs other controllers' snippets, so the routes are refused rather than served open`,
      })
    else if (scope !== undefined) return readSnippet(known, translateNginxSnippet(value, scope), sibling, notices)
    else warnings.push({ annotation: key, reason: 'a raw configuration snippet: refused, never passed on to HAProxy' })
    return []
  }
  const restriction = unhonouredRestriction(vocabularies, prefix.prefix, suffix, value)
  if (restriction) {
    refusals.push({ annotation: key, reason: `${restriction}, so the routes are refused rather than served open` })
    return []
  }
  const spelling = vocabularies.map((vocabulary) => spellingOf(vocabulary, suffix)).find((found) => found !== undefined)
  if (!spelling) {
    // haproxytech's src-ip-header is judged once the source lists are known (checkSourceHeader).
    if (!(vocabularies.includes('haproxytech') && suffix === SOURCE_HEADER_SUFFIX))
      warnings.push({ annotation: key, reason: unsupportedReason(prefix, suffix) })
    return []
  }
  const parsed = spelling.schema(sibling).safeParse(value)
  if (parsed.success) return [{ key, rank: known.rank, spelling, value: parsed.data, sibling }]
  const reason = `${annotationPath(key)}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`
  if (restrictsAccess(spelling.feature))
    refusals.push({ annotation: key, reason: `${reason}; it restricts access, so the routes are refused rather than served open` })
  else warnings.push({ annotation: key, reason: `${reason}; ignored` })
  return []
}

/**
 * An NGINX snippet translated: each feature it asks for is a candidate as an annotation's would be
 * (after the annotations of its prefix, so an annotation that disagrees wins and the snippet's value
 * is named in the warning); refused whole, it is a warning and nothing of it is applied.
 */
function readSnippet({ key, rank, suffix, prefix }: KnownAnnotation, translation: SnippetTranslation, sibling: Sibling, { warnings }: Notices): Candidate[] {
  if ('refused' in translation) {
    warnings.push({
      annotation: key,
      reason: `a configuration snippet refused whole, never passed on to HAProxy: ${translation.refused}`,
    })
    return []
  }
  for (const reason of translation.warnings) warnings.push({ annotation: key, reason })
  const vocabulary = prefix.vocabularies[0]!
  return Object.entries(translation.features).map(([feature, value]) => ({
    key,
    rank,
    spelling: { vocabulary, suffix, feature: feature as FeatureName, schema: () => z.never(), doc: 'a translated NGINX snippet (nginx-snippet.ts)' },
    value,
    sibling,
    snippet: true as const,
  }))
}

/**
 * Per feature, the earliest prefix (then the earliest spelling) wins; a candidate that reads
 * differently is named in a warning, one that agrees is honoured too. Then what the winners imply
 * fills the features nobody set.
 */
function resolve(candidates: Map<FeatureName, Candidate[]>, { warnings }: Notices) {
  const features: Record<string, unknown> = {}
  const sources: Record<string, string> = {}
  const honoured: string[] = []
  const readFrom: Record<string, string[]> = {}
  const winners: Candidate[] = []
  for (const [feature, list] of candidates) {
    const [winner, ...others] = [...list].sort((a, b) => a.rank - b.rank || spellingRank(a.spelling) - spellingRank(b.spelling)) as [Candidate, ...Candidate[]]
    features[feature] = winner.value
    sources[feature] = winner.key
    winners.push(winner)
    const agreeing = [winner.key]
    for (const other of others)
      if (canonical(other.value) === canonical(winner.value)) agreeing.push(other.key)
      else if ((winner.snippet || other.snippet) && isHeaderList(feature)) {
        const { merged, clashes } = mergeHeaderLists(feature, features[feature] as Header[], other.value as Header[])
        features[feature] = merged
        agreeing.push(other.key)
        if (clashes.length > 0)
          warnings.push({ annotation: other.key, reason: `${clashes.join(', ')}: also set by ${winner.key}, which takes precedence; ignored` })
      } else warnings.push({ annotation: other.key, reason: `disagrees with ${winner.key} (${describe(winner.value)}), which takes precedence; ignored` })
    readFrom[feature] = agreeing
    honoured.push(...agreeing)
  }
  for (const winner of winners)
    for (const [feature, value] of Object.entries(winner.spelling.implies?.(winner.value, winner.sibling) ?? {}))
      if (!(feature in features)) {
        features[feature] = value
        sources[feature] = `${winner.key} (implied)`
      }
  return { features, sources, honoured, readFrom }
}

/**
 * Basic authentication needs a method and a Secret. A method without a Secret could check nobody:
 * refused. A Secret without a method is ignored by ingress-nginx and haproxytech, which then serve
 * the routes open; hapedge checks it instead (never open) and says so.
 */
function checkAuthentication(features: Record<string, unknown>, sources: Record<string, string>, { warnings, refusals }: Notices) {
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
function checkSourceHeader(known: KnownAnnotation[], features: Record<string, unknown>, { warnings, refusals }: Notices) {
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
