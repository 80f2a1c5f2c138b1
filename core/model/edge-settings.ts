import { z } from 'zod'
import { isIpv4, isIpv6 } from '../syntax/fields.ts'
import { flag, haproxyTime } from './setting-values.ts'

/**
 * The settings ConfigMap's keys for HAProxy's process and TLS, with the anchors' names where they
 * have one: each becomes one line of `global` or `defaults` (render-global.ts), so a change is a
 * settings reload. Every value is checked against what is known to be safe there.
 */

const TLS_VERSIONS = ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const
export type TlsVersion = (typeof TLS_VERSIONS)[number]

/** ingress-nginx's `ssl-protocols` ("TLSv1.2 TLSv1.3"): the range from the lowest to the highest named, as HAProxy's ssl-min-ver and ssl-max-ver. */
const sslProtocols = z.string().transform((value, ctx) => {
  const named = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((word) => (word === 'TLSv1' ? 'TLSv1.0' : word))
  const unknown = named.find((word) => !(TLS_VERSIONS as readonly string[]).includes(word))
  if (named.length === 0 || unknown !== undefined) {
    ctx.addIssue({ code: 'custom', message: `${unknown ? `"${unknown}" ` : ''}must list TLS versions among TLSv1, TLSv1.1, TLSv1.2 and TLSv1.3` })
    return z.NEVER
  }
  const ranks = named.map((word) => TLS_VERSIONS.indexOf(word as TlsVersion))
  return { min: TLS_VERSIONS[Math.min(...ranks)]!, max: TLS_VERSIONS[Math.max(...ranks)]! }
})

/** An `ip:port` (IPv6 in brackets, `*` or nothing for every address): where HAProxy's Prometheus exporter listens. */
const bindAddress = z.string().refine((value) => {
  const match = /^(.*):(\d{1,5})$/.exec(value)
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65_535) return false
  const host = match[1]!
  return host === '' || host === '*' || isIpv4(host) || (host.startsWith('[') && host.endsWith(']') && isIpv6(host.slice(1, -1)))
}, 'must be an address and port such as "0.0.0.0:9101" or "[::]:9101"')

export const edgeSettingsSchema = {
  // haproxy-ingress and haproxytech `hard-stop-after`: an old worker left after a reload is stopped at this age.
  'hard-stop-after': haproxyTime.optional(),
  // HAProxy's `close-spread-time`: an old worker closes its idle keep-alive connections over this time, not at once.
  'close-spread-time': haproxyTime.optional(),
  // haproxy-ingress and haproxytech `timeout-tunnel`: the default for WebSockets and other upgraded connections.
  'timeout-tunnel': haproxyTime.optional(),
  // haproxy-ingress `max-connections` (haproxytech `maxconn`): HAProxy's global maxconn.
  'max-connections': z
    .string()
    .regex(/^\d{1,8}$/, 'must be a whole number of connections')
    .transform(Number)
    .refine((count) => count >= 1, 'must be at least 1')
    .optional(),
  'ssl-protocols': sslProtocols.optional(),
  // ingress-nginx `ssl-ciphers` (TLS 1.2 and older, OpenSSL's cipher list syntax).
  'ssl-ciphers': z
    .string()
    .regex(/^[A-Za-z0-9_+!@:.=-]{1,2048}$/, 'must be an OpenSSL cipher list (letters, digits and _ + ! @ : . = -)')
    .optional(),
  // haproxy-ingress `ssl-cipher-suites` (TLS 1.3).
  'ssl-cipher-suites': z
    .string()
    .regex(/^[A-Z0-9_]+(:[A-Z0-9_]+)*$/, 'must be TLS 1.3 cipher suites separated by ":" (TLS_AES_128_GCM_SHA256:…)')
    .optional(),
  // ingress-nginx `use-http2`: HTTP/2 offered on the HTTPS bind (ALPN).
  'use-http2': flag.default(true),
  // ingress-nginx `use-proxy-protocol`: the PROXY protocol is read from the proxies of proxy-real-ip-cidr (and only from them).
  'use-proxy-protocol': flag.default(false),
  // Where HAProxy's own Prometheus exporter answers /metrics (off when absent).
  'prometheus-bind': bindAddress.optional(),
}
