import { quote } from '../syntax/fields.ts'
import { searchExpression } from '../syntax/regex-search.ts'
import { invalid, parser } from './values.ts'

/**
 * ingress-nginx's `auth-tls-match-cn` (`CN=(name1|name2)`): a regular expression NGINX searches
 * the client certificate's subject DN for (`$ssl_client_s_dn !~ …`: 403), kept as the normalised
 * expression that searches a DN (regex-search.ts). A value the reader refuses is invalid, which
 * refuses the Ingress (it restricts access: fail closed).
 */
export const subjectPattern = parser((value) => {
  const read = searchExpression(value.trim())
  return 'refused' in read ? invalid(`${quote(value)}: ${read.refused}`) : read.expression
})
