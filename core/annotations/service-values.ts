import { quote } from '../syntax/fields.ts'
import { cookieDomain, HAPROXY_WORD, invalid, isCookieAttribute, nginxTime, parser, sameSite } from './values.ts'

/**
 * NGINX Inc.'s per-Service annotations: a list of the Ingress's Services (`grpc-services`,
 * `ssl-services`, `websocket-services`) or a setting per Service (`sticky-cookie-services`).
 */

/** A Service's name: a DNS label, which is also all HAProxy's names and hapedge's keys may hold of it. */
const SERVICE = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/

/** `svc-a,svc-b`: Services of the Ingress's namespace. */
export const serviceNames = parser((value) => {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0) return invalid('must name at least one Service')
  const bad = names.find((name) => !SERVICE.test(name))
  return bad === undefined ? [...new Set(names)] : invalid(`${quote(bad)} must be a Service name`)
})

/** NGINX Plus's `sticky cookie` for one Service, as hapedge's cookie affinity writes it. */
export interface StickyCookie {
  name: string
  /** Max-Age in seconds; `expires=max` is NGINX's "31 Dec 2037", ten years here. */
  maxAge?: number
  domain?: string
  path?: string
  httpOnly?: true
  secure?: true
  sameSite?: 'Strict' | 'Lax' | 'None'
}

const TEN_YEARS = 10 * 365 * 86_400

/**
 * `serviceName=coffee-svc srv_id expires=1h path=/coffee;serviceName=tea-svc srv_id` (NGINX Inc.'s
 * session-persistence example): `;`-separated, each the Service, the cookie's name, then NGINX's
 * `sticky cookie` parameters expires, domain, path, httponly, secure, samesite.
 */
export const stickyCookieServices = parser<Record<string, StickyCookie>>((value) => {
  const services: Record<string, StickyCookie> = {}
  const entries = value
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
  for (const entry of entries) {
    const [service, name, ...parameters] = entry.split(/\s+/)
    const serviceName = /^serviceName=(.+)$/.exec(service ?? '')?.[1]
    if (!serviceName || !SERVICE.test(serviceName)) return invalid(`${quote(entry)} must begin with serviceName=<Service>`)
    // The name is written into HAProxy's `cookie` line as it is: only characters its parser reads as themselves.
    if (!name || !HAPROXY_WORD.test(name)) return invalid(`${quote(entry)}: the cookie name must follow serviceName= (letters, digits and ! * + . ^ _ | ~ -)`)
    const sticky: StickyCookie = { name }
    for (const parameter of parameters) {
      const [key, setting] = parameter.split(/=(.*)/s) as [string, string | undefined]
      const problem = readParameter(sticky, key, setting)
      if (problem) return invalid(`${quote(parameter)} (Service ${serviceName}): ${problem}`)
    }
    services[serviceName] = sticky
  }
  return Object.keys(services).length > 0 ? services : invalid('must name at least one Service')
})

/** Sets one `sticky cookie` parameter; says what is wrong with it otherwise. */
function readParameter(sticky: StickyCookie, key: string, setting: string | undefined): string | undefined {
  if (key === 'httponly' && setting === undefined) sticky.httpOnly = true
  else if (key === 'secure' && setting === undefined) sticky.secure = true
  else if (key === 'expires' && setting === 'max') sticky.maxAge = TEN_YEARS
  else if (key === 'expires' && setting !== undefined) {
    const time = nginxTime.safeParse(setting)
    if (!time.success) return 'expires must be an NGINX time such as "1h", or "max"'
    sticky.maxAge = Math.floor(time.data / 1000)
  } else if (key === 'domain' && setting !== undefined) {
    const domain = cookieDomain.safeParse(setting)
    if (!domain.success) return 'domain must be a domain name'
    sticky.domain = domain.data
  } else if (key === 'path' && setting !== undefined) {
    if (!setting.startsWith('/') || !isCookieAttribute(setting)) return 'path must be an absolute path without ; " \\ or $'
    sticky.path = setting
  } else if (key === 'samesite' && setting !== undefined) {
    const same = sameSite.safeParse(setting)
    if (!same.success) return 'samesite must be strict, lax or none'
    sticky.sameSite = same.data
  } else return 'must be expires=, domain=, path=, httponly, secure or samesite='
  return undefined
}
