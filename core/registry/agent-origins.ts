import { z } from 'zod'

/**
 * Where the function may push to a cluster's agents. An agent names its own `--listen` URL
 * when it reports, and anyone holding the cluster's token can report; so the function calls
 * only origins the operator allowed at registration (hosts are names or addresses, not ranges; a leading `*.`
 * covers one or more labels, and the port may be `*`). Link-local addresses (cloud metadata services) are never called.
 */
export const originPattern = z
  .string()
  .max(253)
  .regex(
    /^https?:\/\/(\*\.)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:(\d{1,5}|\*))?$|^https?:\/\/\[[0-9a-f:.]+\](:(\d{1,5}|\*))?$/,
    'must be an origin like https://agents.example.com, http://10.1.2.3:*, or https://*.pods.example.com',
  )

export const agentOrigins = z.array(originPattern).max(32)

/** The URL an agent reports for pushes: http(s), no credentials, query or fragment. */
export const notifyUrl = z
  .string()
  .max(512)
  .refine((value) => {
    const url = parseUrl(value)
    return url !== null && /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.search && !url.hash
  }, 'must be an http(s) URL without credentials, query or fragment')

/** Whether `url` is on an origin one of the patterns allows. */
export function originAllowed(patterns: readonly string[], url: string): boolean {
  const parsed = parseUrl(url)
  if (!parsed || linkLocal(parsed.hostname)) return false
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80')
  return patterns.some((pattern) => {
    const [, scheme, host, patternPort] = /^(https?):\/\/(\[[^\]]+\]|[^:]+)(?::(.+))?$/.exec(pattern)!
    if (`${scheme}:` !== parsed.protocol) return false
    if ((patternPort ?? (scheme === 'https' ? '443' : '80')) !== port && patternPort !== '*') return false
    return host!.startsWith('*.') ? parsed.hostname.endsWith(host!.slice(1)) : parsed.hostname === host
  })
}

/**
 * What an agent that reports `url` is told when the cluster will not push to it: it then hears
 * of a generation at its next poll only (5 s by default, instead of a tenth of one).
 */
export function notifyUrlWarning(patterns: readonly string[], url: string): string | undefined {
  if (originAllowed(patterns, url)) return undefined
  const allowed = patterns.length > 0 ? patterns.join(', ') : 'none'
  return `notifyUrl ${url}: not allowed by the cluster's agentOrigins (${allowed}); this agent is not pushed to and waits for its poll`
}

function linkLocal(hostname: string): boolean {
  return /^169\.254\./.test(hostname) || /^\[fe[89ab][0-9a-f]:/i.test(hostname)
}

/** `URL.parse`, which Node 20 before 20.18 lacks. */
function parseUrl(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}
