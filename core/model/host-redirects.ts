import type { Features } from '../annotations/features.ts'
import type { Ingress } from '../kube/ingress.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import type { Settings } from './settings.ts'
import { otherWwwName } from './www-name.ts'

/** The status code of a redirect to HTTPS unless the Ingress asks for another (ingress-nginx's `http-redirect-code`). */
export const HTTPS_REDIRECT_CODE = 308

/** HSTS's max-age unless the Ingress sets one: a year, ingress-nginx's (ConfigMap) default. */
export const HSTS_MAX_AGE = 31_536_000

/** The settings a host's redirects and HSTS read: a change of one derives every host with a certificate again. */
export const HOST_SETTINGS = ['ssl-redirect', 'hsts', 'hsts-max-age', 'hsts-include-subdomains', 'hsts-preload'] as const satisfies readonly (keyof Settings)[]

export interface Hsts {
  maxAge: number
  includeSubDomains: boolean
  preload: boolean
}

/** What a host answers itself, before a route is served: the redirects and the HSTS header that are per host. */
export interface HostRedirects {
  /** Plain HTTP requests to this host are redirected to HTTPS. */
  redirectToHttps: boolean
  /** The code of that redirect, when it is not HTTPS_REDIRECT_CODE. */
  redirectCode?: number
  /** Strict-Transport-Security on the host's HTTPS answers. */
  hsts?: Hsts
  /** A request for `/` is redirected (302) to this path. */
  appRoot?: string
  /** The other name (with or without `www.`) is redirected (308) to this host. */
  fromToWww?: true
}

/** The features of the first Ingress that asks for `feature` (a function of its own: tsx names a named closure each time it is made, see tell-notices.ts). */
function firstAsking(ingresses: readonly Ingress[], feature: keyof Features): Features | undefined {
  for (const ingress of ingresses) {
    const rendered = ingressAnnotations(ingress).rendered
    if (rendered[feature] !== undefined) return rendered
  }
  return undefined
}

/**
 * A host's redirects and HSTS. The Ingress whose certificate the host serves decides what concerns
 * HTTPS (ssl-redirect, its code, HSTS); the first Ingress (in precedence order) with rules for the
 * host that sets force-ssl-redirect, app-root or from-to-www-redirect decides those, as ingress-nginx
 * renders them per server (a refused Ingress, for its annotations or for want of its users, decides none of those). `ingresses` are the host's served
 * Ingresses in precedence order; a host without routes redirects nothing.
 */
export function hostRedirects(
  host: string,
  ingresses: readonly Ingress[],
  tlsOwner: Ingress | undefined,
  hasRoutes: boolean,
  state: ClusterState,
  settings: Settings,
): HostRedirects {
  const withRules = ingresses.filter(
    (ingress) => ingress.spec.rules?.some((rule) => (rule.host ?? '') === host && rule.http) && ingressRefusal(ingress, state) === undefined,
  )
  const tls = tlsOwner ? ingressAnnotations(tlsOwner).rendered : undefined
  const forced = firstAsking(withRules, 'force-ssl-redirect')
  const decider = tls && (tls['ssl-redirect'] ?? settings['ssl-redirect']) ? tls : forced?.['force-ssl-redirect'] ? forced : undefined
  const redirects: HostRedirects = { redirectToHttps: decider !== undefined && hasRoutes }
  const code = decider?.['ssl-redirect-code']
  if (redirects.redirectToHttps && code !== undefined && code !== HTTPS_REDIRECT_CODE) redirects.redirectCode = code
  // The certificate's Ingress decides, else the settings (ingress-nginx's ConfigMap keys); each value the same way.
  if (tls && (tls.hsts ?? settings.hsts))
    redirects.hsts = {
      maxAge: tls['hsts-max-age'] ?? settings['hsts-max-age'] ?? HSTS_MAX_AGE,
      includeSubDomains: tls['hsts-include-subdomains'] ?? settings['hsts-include-subdomains'] ?? false,
      preload: tls['hsts-preload'] ?? settings['hsts-preload'] ?? false,
    }
  const appRoot = firstAsking(withRules, 'app-root')?.['app-root']
  if (appRoot !== undefined) redirects.appRoot = appRoot
  if (firstAsking(withRules, 'from-to-www-redirect')?.['from-to-www-redirect'] && otherWwwName(host)) redirects.fromToWww = true
  return redirects
}
