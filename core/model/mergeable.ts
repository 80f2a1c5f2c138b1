import type { Ingress } from '../kube/ingress.ts'
import { describeIngress } from './ingress-order.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import type { Rejection } from './rejection.ts'

/**
 * NGINX Inc.'s mergeable Ingresses (examples/ingress-resources/mergeable-ingress-types): a master
 * Ingress sets a host's certificate and host-wide annotations and serves no path; its minions add
 * paths and inherit some of the master's annotations unless they set them. hapedge derives a host
 * from all its Ingresses at once, so a master and its minions are read here as what they mean: a
 * master without paths, and each minion with the master's annotations merged under its own. A
 * change of the master re-derives its host, minions included, as any change of a host's Ingress does.
 */

/** What minions take from the master unless they set it themselves ("Minions inherit…"). */
const INHERITED = new Set(
  [
    'proxy-connect-timeout',
    'proxy-read-timeout',
    'proxy-send-timeout',
    'client-max-body-size',
    'proxy-buffering',
    'proxy-buffers',
    'proxy-buffer-size',
    'proxy-max-temp-file-size',
    'location-snippets',
    'lb-method',
    'keepalive',
    'max-fails',
    'max-conns',
    'fail-timeout',
    'limit-req-rate',
    'limit-req-key',
    'limit-req-zone-size',
    'limit-req-delay',
    'limit-req-no-delay',
    'limit-req-burst',
    'limit-req-dry-run',
    'limit-req-log-level',
    'limit-req-reject-code',
    'limit-req-scale',
  ].map((suffix) => `nginx.org/${suffix}`),
)

/** What only the master sets, for the whole host ("Minions cannot contain…"): the master's applies to every minion's routes. */
const HOST_WIDE = new Set([
  ...[
    'proxy-hide-headers',
    'proxy-pass-headers',
    'redirect-to-https',
    'ssl-redirect',
    'http-redirect-code',
    'hsts',
    'hsts-max-age',
    'hsts-include-subdomains',
    'server-tokens',
    'listen-ports',
    'listen-ports-ssl',
    'server-snippets',
  ].map((suffix) => `nginx.org/${suffix}`),
  'ingress.kubernetes.io/ssl-redirect',
])

/** What only minions set, per path ("Masters cannot contain…"). */
const PER_PATH = new Set([
  ...['rewrites', 'ssl-services', 'grpc-services', 'websocket-services', 'use-cluster-ip'].map((suffix) => `nginx.org/${suffix}`),
  ...['sticky-cookie-services', 'health-checks', 'health-checks-mandatory', 'health-checks-mandatory-queue'].map((suffix) => `nginx.com/${suffix}`),
])

const typeOf = (ingress: Ingress) => ingressAnnotations(ingress).rendered['mergeable-ingress-type']

/** A master names its host in a rule without paths: the host index keeps it (cluster-state.ts hostsOf). */
export const isMergeableMaster = (ingress: Ingress) => typeOf(ingress) === 'master'

/**
 * A host's Ingresses (in precedence order) with its mergeable ones resolved: the oldest master is
 * the host's (later ones are not served), minions without a master are not served (as NGINX Inc.
 * does), and what either sets that is the other's to set is told and left out.
 */
export function mergeIngresses(host: string, ingresses: readonly Ingress[], rejections: Rejection[]): Ingress[] {
  if (!ingresses.some((ingress) => typeOf(ingress) !== undefined)) return [...ingresses]
  const reject = (ingress: Ingress, reason: string) => rejections.push({ object: describeIngress(ingress), reason })
  const oneHost = ingresses.filter((ingress) => {
    if (typeOf(ingress) === undefined) return true
    const hosts = new Set((ingress.spec.rules ?? []).map((rule) => rule.host ?? ''))
    if (hosts.size <= 1) return true
    reject(ingress, `a mergeable Ingress (nginx.org/mergeable-ingress-type) names one host, not ${hosts.size}; it is not served`)
    return false
  })
  const master = oneHost.find((ingress) => typeOf(ingress) === 'master')
  const merged: Ingress[] = []
  for (const ingress of oneHost) {
    const type = typeOf(ingress)
    if (type === undefined) merged.push(ingress)
    else if (ingress === master) merged.push(asMaster(ingress, reject))
    else if (type === 'master')
      reject(ingress, `host "${host || '*'}" already has the master ${describeIngress(master!)} (nginx.org/mergeable-ingress-type); this one is not served`)
    else if (!master) reject(ingress, `a minion (nginx.org/mergeable-ingress-type) of host "${host || '*'}", which has no master Ingress; it is not served`)
    else merged.push(asMinion(ingress, master, reject))
  }
  return merged
}

/** The master serves the host's certificate and host-wide settings, and no path. */
function asMaster(master: Ingress, reject: (ingress: Ingress, reason: string) => void): Ingress {
  for (const key of Object.keys(master.metadata.annotations ?? {}))
    if (PER_PATH.has(key)) reject(master, `metadata.annotations.${key}: a master Ingress cannot set it (its minions can); it is ignored`)
  const rules = master.spec.rules ?? []
  if (!rules.some((rule) => rule.http)) return master
  rules.forEach((rule, r) => {
    if (rule.http) reject(master, `spec.rules[${r}].http: a master Ingress serves no path (its minions do); its paths are not served`)
  })
  return { ...master, spec: { ...master.spec, rules: rules.map(({ http: _paths, ...rule }) => rule) } }
}

/** A minion: its paths, with the master's inherited and host-wide annotations under its own, and no certificate of its own. */
function asMinion(minion: Ingress, master: Ingress, reject: (ingress: Ingress, reason: string) => void): Ingress {
  const own = minion.metadata.annotations ?? {}
  const annotations: Record<string, string> = {}
  for (const [key, value] of Object.entries(master.metadata.annotations ?? {})) if (INHERITED.has(key) || HOST_WIDE.has(key)) annotations[key] = value
  for (const [key, value] of Object.entries(own)) {
    if (HOST_WIDE.has(key))
      reject(minion, `metadata.annotations.${key}: the master ${describeIngress(master)} sets it for the host; a minion cannot, so it is ignored`)
    else annotations[key] = value
  }
  if (minion.spec.tls?.length)
    reject(minion, `spec.tls: a minion cannot set TLS (nginx.org/mergeable-ingress-type); the host's certificate is the master's, ${describeIngress(master)}`)
  const { tls: _tls, ...spec } = minion.spec
  const merged: Ingress = { ...minion, metadata: { ...minion.metadata, annotations }, spec }
  // What the master sets that refuses its routes refuses the minion's too, and the minion is told why.
  const refusal = ingressAnnotations(merged).refusal
  if (refusal !== undefined && ingressAnnotations(minion).refusal === undefined) reject(minion, `from its master ${describeIngress(master)}: ${refusal}`)
  return merged
}
