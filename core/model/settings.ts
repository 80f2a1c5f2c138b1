import { z } from 'zod'
import { formatPath, issuesFromZod, prefixIssues, type Issue } from '../issues.ts'
import { ownValue } from '../own-value.ts'
import { cidrList, nginxSize, seconds } from '../annotations/values.ts'
import { refusalStatus } from '../annotations/limit-values.ts'
import { edgeSettingsSchema } from './edge-settings.ts'
import { defaultCertificateSetting } from './default-certificate.ts'
import { flag, haproxyTime } from './setting-values.ts'

/** What the operator chooses for a cluster (the command line, or the cluster's record). */
export interface ClusterOptions {
  /** The IngressClass name this cluster's Ingresses must ask for (or be defaulted to). */
  ingressClass: string
  /** The ConfigMap holding global settings, as `namespace/name`. */
  configMap: string
  httpBind: string
  httpsBind: string
  /** Whether a Service's `hapedge.io/backend-config-snippet` is rendered into its backends. */
  snippets: SnippetPolicy
  /** The Gateway listener ports served on a socket of their own besides the HTTP and HTTPS binds (gateway-ports.ts); none when absent. */
  gatewayPorts?: GatewayPort[]
}

/** A port a Gateway listener may name, the protocol its listeners must have, and where HAProxy binds it (a Service in front maps the port to it). */
export interface GatewayPort {
  port: number
  protocol: 'HTTP' | 'HTTPS'
  bind: string
}

export const DEFAULT_OPTIONS: ClusterOptions = {
  ingressClass: 'hapedge',
  configMap: 'hapedge/hapedge',
  httpBind: '0.0.0.0:80',
  httpsBind: '0.0.0.0:443',
  snippets: 'forbidden',
}

/** Raw configuration snippets are off unless an operator turns them on for a cluster. */
export const snippetPolicy = z.enum(['forbidden', 'allowed'], { error: 'must be "forbidden" or "allowed"' })
export type SnippetPolicy = z.output<typeof snippetPolicy>

/** Every option in one order: how a snapshot records the options it was derived under, and how they are compared. */
export function canonicalOptions(options: ClusterOptions): ClusterOptions {
  const { ingressClass, configMap, httpBind, httpsBind, snippets, gatewayPorts = [] } = options
  // Absent when none: a cluster without extra ports records the options it always did (a change of them derives everything again).
  if (gatewayPorts.length === 0) return { ingressClass, configMap, httpBind, httpsBind, snippets }
  const ports = [...gatewayPorts].sort((a, b) => a.port - b.port).map(({ port, protocol, bind }) => ({ port, protocol, bind }))
  return { ingressClass, configMap, httpBind, httpsBind, snippets, gatewayPorts: ports }
}

/** The controllerName of the GatewayClasses a cluster serves unless its settings name another (`gateway-controller`). */
export const DEFAULT_GATEWAY_CONTROLLER = 'hapedge.io/gateway-controller'

/** The global settings read from the ConfigMap's `data`, with their defaults. */
export const settingsSchema = z.object({
  'ssl-redirect': flag.default(true),
  // ingress-nginx's names (ConfigMap only there, on by default): HSTS on the HTTPS answers of every host whose Ingress says nothing of it.
  hsts: flag.optional(),
  'hsts-max-age': seconds.optional(),
  'hsts-include-subdomains': flag.optional(),
  'hsts-preload': flag.optional(),
  'timeout-connect': haproxyTime.default('5s'),
  'timeout-client': haproxyTime.default('60s'),
  'timeout-server': haproxyTime.default('60s'),
  'timeout-http-request': haproxyTime.default('10s'),
  balance: z.enum(['roundrobin', 'leastconn', 'random']).default('roundrobin'),
  // ingress-nginx's names: X-Forwarded-For gives the client's address only when it comes from one of these proxies.
  'use-forwarded-headers': flag.default(false),
  'proxy-real-ip-cidr': cidrList.optional(),
  // ingress-nginx's name and NGINX sizes: the body limit of the routes whose Ingress sets none ("0" or absent: none).
  'proxy-body-size': nginxSize.optional(),
  // ingress-nginx's names: the status of a request refused by a rate or a connection limit whose Ingress sets none (429 unless set).
  'limit-req-status-code': refusalStatus.optional(),
  'limit-conn-status-code': refusalStatus.optional(),
  ...edgeSettingsSchema,
  // ingress-nginx's --default-ssl-certificate, as a setting: the TLS Secret served to names no Ingress claims.
  'default-ssl-certificate': defaultCertificateSetting.optional(),
  // The controllerName of the GatewayClasses this cluster serves (gateway-controller.ts): a domain-prefixed path, as the Gateway API writes it.
  'gateway-controller': z
    .string()
    .max(253, 'must be at most 253 characters')
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/, 'must be a domain-prefixed path, such as hapedge.io/gateway-controller')
    .default(DEFAULT_GATEWAY_CONTROLLER),
})

export type Settings = z.output<typeof settingsSchema>

/** Reads each key on its own, so one bad value falls back to its default without losing the others. */
export function readSettings(data: Record<string, string> | null | undefined): { settings: Settings; issues: Issue[] } {
  const shape = settingsSchema.shape as Record<string, z.ZodType>
  const accepted: Record<string, string> = {}
  const issues: Issue[] = []
  for (const [key, value] of Object.entries(data ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const field = ownValue(shape, key)
    const path = formatPath(['data', key])
    if (!field) {
      issues.push({ code: 'unrecognized_keys', path, message: `unknown setting (known: ${Object.keys(shape).join(', ')})` })
      continue
    }
    const result = field.safeParse(value)
    if (result.success) accepted[key] = value
    else issues.push(...prefixIssues(['data', key], issuesFromZod(result.error)))
  }
  const settings = settingsSchema.parse(accepted)
  issues.push(...forwardedHeaderIssues(settings), ...proxyProtocolIssues(settings))
  return { settings, issues }
}

/** PROXY protocol from everyone would let any client choose its address: it is read only from proxy-real-ip-cidr's proxies. */
function proxyProtocolIssues(settings: Settings): Issue[] {
  if (!settings['use-proxy-protocol'] || settings['proxy-real-ip-cidr'] !== undefined) return []
  const message = 'the PROXY protocol is read only from the proxies listed in proxy-real-ip-cidr, which is not set: it stays off'
  return [{ code: 'custom', path: formatPath(['data', 'use-proxy-protocol']), message }]
}

/** The proxies of proxy-real-ip-cidr, when the switch that makes hapedge believe them is on; none otherwise. */
export function believedProxies(settings: Settings, switched: 'use-forwarded-headers' | 'use-proxy-protocol'): string[] {
  return settings[switched] ? (settings['proxy-real-ip-cidr']?.ranges ?? []) : []
}

/** The proxies whose PROXY protocol header gives the client's address; none unless use-proxy-protocol. */
export const proxyProtocolSources = (settings: Settings) => believedProxies(settings, 'use-proxy-protocol')

/**
 * The two settings that make X-Forwarded-For believed go together: ingress-nginx trusts every
 * address (`0.0.0.0/0`) when only `use-forwarded-headers` is set, which would let any client
 * choose its address; hapedge trusts none then, and says so.
 */
function forwardedHeaderIssues(settings: Settings): Issue[] {
  const on = settings['use-forwarded-headers']
  const proxies = settings['proxy-real-ip-cidr'] !== undefined
  if (on === proxies) return []
  const [key, message] = on
    ? ['use-forwarded-headers', 'X-Forwarded-For is believed only from the proxies listed in proxy-real-ip-cidr, which is not set: it stays ignored']
    : ['proxy-real-ip-cidr', 'its proxies are trusted only with use-forwarded-headers: "true": X-Forwarded-For stays ignored']
  return [{ code: 'custom', path: formatPath(['data', key]), message }]
}
