import { z } from 'zod'
import { isIpv4, isIpv6, quote } from '../syntax/fields.ts'

const SHAPE = 'must be ADDR:PORT: an IPv4 address, [IPv6] in brackets, or * or nothing for every address, e.g. 0.0.0.0:80, [::]:443 or :80'
const PORT = /^[1-9]\d{0,4}$/

/**
 * Why `bind` is not an `ADDR:PORT` HAProxy's `bind` takes as it is meant, or undefined when it is.
 * Octets with leading zeros are refused: HAProxy reads `010.0.0.1` as 8.0.0.1. The port is
 * written once, without leading zeros, so equal binds are equal strings.
 */
function bindAddressProblem(bind: string): string | undefined {
  const colon = bind.lastIndexOf(':')
  if (colon < 0) return SHAPE
  const host = bind.slice(0, colon)
  const port = bind.slice(colon + 1)
  if (host.startsWith('[') && host.endsWith(']')) {
    if (!isIpv6(host.slice(1, -1))) return `${quote(host.slice(1, -1))} is not an IPv6 address`
  } else if (/^[\d.]+$/.test(host)) {
    if (!isIpv4(host)) return `${quote(host)} is not an IPv4 address: four numbers 0 to 255 without leading zeros`
  } else if (host !== '' && host !== '*') return SHAPE
  if (!PORT.test(port) || Number(port) > 65535) return `port ${quote(port)} must be 1 to 65535, without leading zeros`
  return undefined
}

/** `ADDR:PORT` for HAProxy's `bind`: what registration, PATCH and `hapedge render` all accept. */
export const bindAddress = z.string().superRefine((bind, context) => {
  const problem = bindAddressProblem(bind)
  if (problem) context.addIssue({ code: 'custom', message: problem })
})

/** The port of a bind `bindAddress` accepted. */
export function bindPort(bind: string): number {
  return Number(bind.slice(bind.lastIndexOf(':') + 1))
}
