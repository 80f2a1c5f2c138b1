import { quote } from '../syntax/fields.ts'
import { readTemplateUrl } from './template-url.ts'
import { invalid, parser } from './values.ts'

/** `$request_uri` in mirror-target: the request's path and query, as the client sent them (written in by the Lua per copy). */
export const REQUEST_URI_VARIABLE = '$request_uri'

const EXAMPLE = 'http://shadow.example.com$request_uri'

/**
 * ingress-nginx's mirror-target: the URL each request of the Ingress is copied to, `$request_uri`
 * standing for the request's path and query (the only variable read). What comes before it must
 * be a whole origin, so the client never chooses where a copy goes; a `,` would split the mirrors
 * of a route's map value (render-mirror.ts).
 */
export const mirrorTarget = parser((raw) => {
  const url = readTemplateUrl(raw, 'mirror-target', ['request_uri'], EXAMPLE)
  if (typeof url !== 'string') return url
  if (url.includes(',')) return invalid(`${quote(url)} must not hold ","`)
  const at = url.indexOf(REQUEST_URI_VARIABLE)
  if (at < 0) return url
  const origin = readTemplateUrl(url.slice(0, at), 'mirror-target', [], EXAMPLE)
  if (typeof origin !== 'string' || new URL(`${origin}/uri`).host !== new URL(origin).host)
    return invalid(`${quote(url)}: ${REQUEST_URI_VARIABLE} may only follow the URL's host (and port or path), never stand in it`)
  return url
})
