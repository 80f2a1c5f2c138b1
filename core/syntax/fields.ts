import { z } from 'zod'

/**
 * Field schemas for every string that can reach HAProxy configuration. Each one admits only
 * what Kubernetes itself admits for the field (or less), so nothing outside it — whitespace,
 * quotes, `#`, `%[`, control characters — can be rendered.
 */

/** One DNS label (RFC 1123), at most 63 characters: a label alone, and each label of a hostname. */
const LABEL = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?'
const DNS_LABEL = new RegExp(`^${LABEL}$`)
/** Labels joined by dots, after at most one leading `*.`: one scan, no label cut out of the name (every Ingress host is read so). */
const HOSTNAME = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*$`)
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const IANA_SERVICE_NAME = /^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/*
 * Each schema's `is…` twin says whether a value passes it, for reading the common forms of
 * objects without zod (fast-read.ts): it must accept exactly what the schema accepts.
 */

export const dnsLabel = z
  .string()
  .max(63, 'must be at most 63 characters')
  .regex(DNS_LABEL, 'must be a DNS label (RFC 1123: lowercase letters, digits and "-")')

export const isDnsLabel = (value: unknown): value is string => typeof value === 'string' && value.length <= 63 && DNS_LABEL.test(value)

export const dnsSubdomain = z
  .string()
  .max(253, 'must be at most 253 characters')
  .regex(DNS_SUBDOMAIN, 'must be a DNS subdomain (RFC 1123: lowercase labels separated by ".")')

/** A run of 64 characters without a dot: a label longer than DNS allows. */
const LONG_LABEL = /[^.]{64}/

/** An object name: a DNS subdomain whose labels are at most 63 characters. */
export const objectName = dnsSubdomain.refine((name) => !LONG_LABEL.test(name), {
  message: 'each label must be at most 63 characters',
})

export const isObjectName = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 253 && DNS_SUBDOMAIN.test(value) && !LONG_LABEL.test(value)

/** An Ingress host: a DNS name, optionally with one leading `*.` label; never an IP address. */
export const hostname = z
  .string()
  .max(253, 'must be at most 253 characters')
  .refine((host) => isHostname(host), {
    error: (issue) => `${quote(issue.input)} must be a DNS name (RFC 1123) with at most one leading "*." label, not an IP address`,
  })

export const isHostnameField = (value: unknown): value is string => typeof value === 'string' && value.length <= 253 && isHostname(value)

function isHostname(host: string): boolean {
  return HOSTNAME.test(host) && !/^(?:\*\.)?[0-9.]+$/.test(host)
}

/**
 * An HTTP path as RFC 3986 allows it (unreserved, percent-encoded, sub-delimiters, `:`, `@`),
 * less the single quote. Regular expressions some controllers accept (`/api(/|$)(.*)`) fail here
 * with a reason, because hapedge matches paths the way the Ingress API documents.
 */
const HTTP_PATH = /^\/([A-Za-z0-9\-._~!$&()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/

export const httpPath = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .refine((path) => path.startsWith('/'), { message: 'must be an absolute path starting with "/"' })
  .refine((path) => !path.startsWith('/') || HTTP_PATH.test(path), {
    error: (issue) => `${quote(issue.input)} may contain only RFC 3986 path characters (no whitespace, quotes, "#", "?", "%" outside %XX, regular expressions)`,
  })

export const isHttpPath = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 1024 && value.startsWith('/') && HTTP_PATH.test(value)

export const portNumber = z.number().int('must be an integer').min(1, 'must be 1 to 65535').max(65535, 'must be 1 to 65535')

export const isPortNumber = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535

export const portName = z
  .string()
  .regex(IANA_SERVICE_NAME, 'must be an IANA service name (at most 15 lowercase letters, digits and "-")')
  .refine((name) => /[a-z]/.test(name), { message: 'must contain at least one letter' })

export const isPortName = (value: unknown): value is string => typeof value === 'string' && IANA_SERVICE_NAME.test(value) && /[a-z]/.test(value)

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/

export const isIpv4 = (address: string) => IPV4.test(address)
export const ipv6Address = z.string().max(45).refine(isIpv6, { message: 'must be an IPv6 address' })

/** A Service's `spec.clusterIP`: an address, `None` for a headless Service, or empty (not yet allocated). */
export const isClusterIp = (value: unknown): value is string =>
  typeof value === 'string' && (value === 'None' || value === '' || isIpv4(value) || (value.length <= 45 && isIpv6(value)))

/**
 * RFC 4291 text form: eight groups of 1 to 4 hex digits, or fewer around a single `::`; the last
 * two may be written as an IPv4 address. Each side of the `::` is split on its own, so a stray
 * colon (`1:::2`, `1::2:`, `:::::`) leaves an empty group and is refused.
 */
export function isIpv6(address: string): boolean {
  const sides = address.split('::')
  if (sides.length > 2) return false
  const groups = sides.map((side) => (side === '' ? [] : side.split(':')))
  const last = groups[groups.length - 1]!
  const embedsIpv4 = last.length > 0 && isIpv4(last[last.length - 1]!)
  if (embedsIpv4) last.pop()
  const hexGroups = groups.flat()
  if (!hexGroups.every((group) => HEX_GROUP.test(group))) return false
  const width = hexGroups.length + (embedsIpv4 ? 2 : 0)
  return sides.length === 2 ? width < 8 : width === 8
}

/** Kubernetes timestamps are RFC 3339; only their order matters here. */
export const timestamp = z.string().max(64).regex(TIMESTAMP, 'must be an RFC 3339 time')

export const isTimestamp = (value: unknown): value is string => typeof value === 'string' && value.length <= 64 && TIMESTAMP.test(value)

export const labels = z.record(z.string().max(317), z.string().max(63))
export const annotations = z.record(z.string().max(317), z.string().max(262144))

/** U+2028/U+2029 and the bidirectional embeddings, overrides, isolates and marks. */
const INVISIBLE_LAYOUT = /[\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g

/**
 * A value echoed in a message: JSON-quoted (so control characters show as escapes), with line and
 * paragraph separators and bidirectional controls escaped too (they break lines in Events and on
 * the fleet page, or reorder what a reader sees), and cut short.
 */
export function quote(value: unknown): string {
  const text = JSON.stringify(String(value)).replace(INVISIBLE_LAYOUT, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return text.length > 80 ? `${text.slice(0, 77)}..."` : text
}
