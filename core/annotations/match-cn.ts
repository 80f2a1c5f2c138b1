import { quote } from '../syntax/fields.ts'
import { readSafeRegex } from '../syntax/safe-regex.ts'
import { emitRegex } from '../syntax/safe-regex-emit.ts'
import { invalid, parser } from './values.ts'

/**
 * ingress-nginx's `auth-tls-match-cn` (`CN=(name1|name2)`): a regular expression NGINX searches
 * the client certificate's subject DN for (`$ssl_client_s_dn !~ …`: 403), read by the safe-regex
 * reader and kept as the normalised expression that searches a DN from its start (`.*` before it,
 * unless it begins with `^`). A value the reader refuses is invalid, which refuses the Ingress
 * (it restricts access: fail closed).
 */
export const subjectPattern = parser((value) => {
  const read = readSafeRegex(value.trim())
  if ('refused' in read) return invalid(`${quote(value)}: ${read.refused}`)
  const { tree } = read
  const anchored = tree.kind === 'start' || (tree.kind === 'sequence' && tree.items[0]?.kind === 'start')
  const rest = anchored && tree.kind === 'sequence' ? { ...tree, items: tree.items.slice(1) } : anchored ? undefined : tree
  if (rest && holdsStart(emitRegex(rest))) return invalid(`${quote(value)}: a "^" other than its first character is not read`)
  return `${anchored ? '' : '.*'}(?:${rest ? emitRegex(rest) : ''})`
})

/** Whether an emitted expression still holds a start anchor (outside a class, where `^` is escaped or first). */
const holdsStart = (emitted: string) => /(^|[^\\[])\^/.test(emitted.replace(/\[\^/g, '['))
