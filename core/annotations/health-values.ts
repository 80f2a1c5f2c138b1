import { quote } from '../syntax/fields.ts'
import { invalid, parser, wholeNumber } from './values.ts'

/**
 * A health check's HTTP path: written into the backend's `option httpchk GET <path>`, so only
 * characters HAProxy's parser reads as themselves: no space, quote, backslash, `#` or `$`.
 */
export const checkPath = parser((value) => {
  const path = value.trim()
  return /^\/[A-Za-z0-9\-._~!&()*+,;=:@%/?]*$/.test(path)
    ? path
    : invalid(`${quote(value)} must be an absolute path of letters, digits and - . _ ~ ! & ( ) * + , ; = : @ % / ?`)
})

/** haproxytech `check-http`: a path, or a method and a path ("HEAD /health"); hapedge checks with GET. */
export const haproxytechCheckHttp = parser((value) => {
  const words = value.trim().split(/\s+/)
  const path = words.length === 2 && /^(GET|HEAD)$/.test(words[0]!) ? words[1]! : words.length === 1 ? words[0]! : undefined
  if (path === undefined) return invalid(`${quote(value)} must be a path, or GET or HEAD and a path`)
  const checked = checkPath.safeParse(path)
  return checked.success ? checked.data : invalid(checked.error.issues[0]!.message)
})

/** How many checks in a row make a server up (rise) or down (fall). */
export const checkCount = wholeNumber(1, 100, 3)
