import type { SourceRanges } from '../annotations/values.ts'
import type { Ingress } from '../kube/ingress.ts'
import { believedProxies, type Settings } from './settings.ts'
import { basicAuthOf, type BasicAuth } from './basic-auth.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { asksNothing } from '../annotations/features.ts'

/**
 * The source ranges one Ingress restricts its routes to: its access group. Each group has its
 * own rules in the frontend and its own ACL files, which HAProxy reads at request time, so a
 * changed list is a runtime edit of its files (`add acl` / `del acl`) and only a group that
 * appears or goes changes the rules (a reload). A group per Ingress rather than per distinct
 * list: a list shared by content would be a new group, so a reload, at every change of a value.
 */
export interface AccessGroup {
  /** `namespace_name`: Kubernetes names are DNS subdomains, so it is safe in file names and rule text (SAFE_GROUP). */
  name: string
  allow?: SourceRanges
  deny?: SourceRanges
  /** Basic authentication: the frontend answers 401 unless the request's credentials are in the userlist. */
  auth?: BasicAuth
  /** limit-allowlist: clients the rate and connection limits do not count (render-limits.ts), in an ACL file edited at runtime. */
  limitExempt?: SourceRanges
}

/** What a group name may hold: it is written unquoted into the frontend's rules and into file names. */
export const SAFE_GROUP = /^[a-z0-9][a-z0-9._-]*$/

/** The access group of an Ingress whose annotations ask for source ranges or basic authentication (undefined otherwise, or when it is refused). */
export function accessGroupOf(ingress: Ingress, state: ClusterState): AccessGroup | undefined {
  const { rendered, refusal } = ingressAnnotations(ingress)
  // Asked of each Ingress on each of its hosts: one that asks for no feature has no group.
  if (asksNothing(rendered)) return undefined
  const allow = rendered['allowlist-source-range']
  const deny = rendered['denylist-source-range']
  const limitExempt = rendered['limit-allowlist']
  const basic = basicAuthOf(ingress, state)
  const auth = 'auth' in basic ? basic.auth : undefined
  if (refusal !== undefined || 'refusal' in basic || (!allow && !deny && !auth && !limitExempt)) return undefined
  const name = accessGroupName(ingress.metadata.namespace, ingress.metadata.name)
  // Validated names always match; anything else would not be safe to write, and is never served open.
  if (!SAFE_GROUP.test(name)) throw new Error(`access group ${JSON.stringify(name)} is not a safe name`)
  return { name, ...(allow ? { allow } : {}), ...(deny ? { deny } : {}), ...(auth ? { auth } : {}), ...(limitExempt ? { limitExempt } : {}) }
}

/** An Ingress's group name, whether or not it has one: Ingresses never hold `_`, so no two share it. */
export function accessGroupName(namespace: string, name: string): string {
  return `${namespace}_${name}`
}

/** The proxies whose `X-Forwarded-For` gives the client's address: none unless both settings say so. */
export const trustedProxies = (settings: Settings) => believedProxies(settings, 'use-forwarded-headers')
