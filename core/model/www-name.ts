/**
 * The name a from-to-www redirect answers for: `www.` added or taken away. None for the rules
 * without host, a wildcard, or a name that starts `www.www.` (whose other name, `www.<x>`, is also
 * the other name of `<x>`: each other name belongs to one host).
 */
export function otherWwwName(host: string): string | undefined {
  if (host === '' || host.startsWith('*.') || host.startsWith('www.www.')) return undefined
  return host.startsWith('www.') ? host.slice('www.'.length) : `www.${host}`
}
