import { Pair, Scalar, YAMLMap, type CollectionTag, type ScalarTag, type YAMLSeq } from 'yaml'

/** The intrinsic functions a template may write in short form (`!Sub`), as `Fn::<name>`. */
const FUNCTIONS = ['Base64', 'Cidr', 'FindInMap', 'GetAZs', 'If', 'ImportValue', 'Join', 'Select', 'Split', 'Sub', 'Transform', 'And', 'Equals', 'Not', 'Or']

const longForm = (key: string, value: unknown) => ({ [key]: value })

function tagsFor(tag: string, key: string): (ScalarTag | CollectionTag)[] {
  const collection = (kind: 'seq' | 'map'): CollectionTag => ({
    tag,
    collection: kind,
    resolve: (node) => {
      const map = new YAMLMap()
      map.items.push(new Pair(new Scalar(key), node as YAMLSeq))
      return map
    },
  })
  return [{ tag, resolve: (value: string) => longForm(key, value) }, collection('seq'), collection('map')]
}

/**
 * CloudFormation's short-form tags (`!Ref`, `!GetAtt`, `!Sub`, …) for the `yaml` package, each
 * read as its long form (`{ Ref: … }`, `{ 'Fn::GetAtt': [resource, attribute] }`), so a parsed
 * template is what CloudFormation itself sees.
 */
export const cloudFormationTags: (ScalarTag | CollectionTag)[] = [
  { tag: '!Ref', resolve: (value: string) => longForm('Ref', value) },
  { tag: '!Condition', resolve: (value: string) => longForm('Condition', value) },
  { tag: '!GetAtt', resolve: (value: string) => longForm('Fn::GetAtt', [value.slice(0, value.indexOf('.')), value.slice(value.indexOf('.') + 1)]) },
  ...tagsFor('!GetAtt', 'Fn::GetAtt').slice(1),
  ...FUNCTIONS.flatMap((name) => tagsFor(`!${name}`, `Fn::${name}`)),
]
