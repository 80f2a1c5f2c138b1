import { unhonouredRestriction } from '../annotations/access.ts'
import { restrictsAccess } from '../annotations/features.ts'
import { accessDirectiveIn, isSnippet } from '../annotations/snippets.ts'
import { spellingOf } from '../annotations/spellings.ts'
import { prefixOf } from '../annotations/vocabularies.ts'

/**
 * Whether an annotation, with this value, decides who may reach the routes, from the model's tables
 * alone (not from the judgement, which this checks): a spelling of a feature that restricts access,
 * an access control listed in access.ts, or a raw snippet with an access directive.
 */
export function restrictsAccessAnnotation(annotation: string, value: string): boolean {
  const found = prefixOf(annotation)
  if (!found) return false
  const { vocabularies, prefix } = found.prefix
  if (isSnippet(vocabularies, found.suffix)) return accessDirectiveIn(value) !== undefined
  if (unhonouredRestriction(vocabularies, prefix, found.suffix, value) !== undefined) return true
  return vocabularies.some((vocabulary) => {
    const spelling = spellingOf(vocabulary, found.suffix)
    return spelling !== undefined && restrictsAccess(spelling.feature)
  })
}
