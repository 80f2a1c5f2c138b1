import * as clientNode from '@kubernetes/client-node'
import type { KubeObject } from './infra-files.ts'

interface ModelClass {
  new (data: unknown): { validate(): void }
}

/**
 * The object checked by `kubernetes-models`, the Kubernetes OpenAPI schemas compiled to
 * validators: types, required fields, enums. Answers the errors, or a line saying that the
 * package has no model for the kind. It does not refuse fields the schema does not name; see
 * `unknownFields`.
 */
export async function schemaErrors(object: KubeObject): Promise<string[]> {
  // The core group's models live at `kubernetes-models/v1/<Kind>`, every other at `<group>/<version>/<Kind>`.
  let Model: ModelClass
  try {
    Model = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`))[object.kind]
  } catch {
    return [`kubernetes-models has no ${object.apiVersion} ${object.kind}`]
  }
  try {
    new Model(object).validate()
    return []
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors
    return errors ? errors.map((entry) => `${entry.instancePath} ${entry.message ?? 'is invalid'}`) : [String(error)]
  }
}

interface Attribute {
  baseName: string
  type: string
}

type AttributeTypes = Record<string, { getAttributeTypeMap?(): Attribute[] } | undefined>
const models = clientNode as unknown as AttributeTypes

/**
 * The fields of the object that its kind does not define, as `kubectl apply --validate=strict`
 * (the default) refuses them: a misspelt `readOnlyRootFileSystem` would otherwise be dropped
 * without a word. The field lists come from `@kubernetes/client-node`'s generated models.
 */
export function unknownFields(object: KubeObject): string[] {
  const version = object.apiVersion.split('/').pop()!
  const type = `${version[0]!.toUpperCase()}${version.slice(1)}${object.kind}`
  if (!models[type]?.getAttributeTypeMap) return [`@kubernetes/client-node has no model ${type}`]
  return unknownIn(object, type, '')
}

function unknownIn(value: unknown, type: string, path: string): string[] {
  if (value === null || value === undefined) return []
  const list = /^Array<(.+)>$/.exec(type)
  if (list) return Array.isArray(value) ? value.flatMap((item, index) => unknownIn(item, list[1]!, `${path}[${index}]`)) : []
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type)
  if (map) return Object.entries(value).flatMap(([key, item]) => unknownIn(item, map[1]!, `${path}.${key}`))
  const attributes = models[type]?.getAttributeTypeMap?.()
  if (!attributes || typeof value !== 'object') return []
  const known = new Map(attributes.map((attribute) => [attribute.baseName, attribute.type]))
  return Object.entries(value).flatMap(([key, field]) => {
    const fieldType = known.get(key)
    return fieldType === undefined ? [`${path}.${key}`] : unknownIn(field, fieldType, `${path}.${key}`)
  })
}
