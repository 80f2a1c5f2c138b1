import { Ajv, type ErrorObject } from 'ajv'

type Schema = Record<string, unknown>

/** Kubernetes' vendor extensions: keywords ajv must know (and not check) in strict mode. */
const KUBERNETES_KEYWORDS = [
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-validations',
]

/** RFC 3339, as the API server checks `format: date-time`. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/

/**
 * Validates objects against a CRD version's `openAPIV3Schema` the way the API server would
 * refuse them. With `closed`, an object with a field the schema does not name is refused too:
 * the API server would silently prune it, so a writer that emits one loses data.
 */
export function crdValidator(openAPIV3Schema: Schema, { closed = false } = {}) {
  const ajv = new Ajv({ strict: true, allErrors: true })
  for (const keyword of KUBERNETES_KEYWORDS) ajv.addKeyword(keyword)
  ajv.addFormat('date-time', DATE_TIME)
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger })
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 })
  const validate = ajv.compile(closed ? closeObjects(openAPIV3Schema) : openAPIV3Schema)
  return (object: unknown): string[] => (validate(object) ? [] : (validate.errors ?? []).map(describe))
}

/** `/status/pods/1/generation must be >= 1`; a missing property is named in the path. */
function describe(error: ErrorObject): string {
  const missing = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : ''
  return `${error.instancePath}${missing} ${error.message ?? 'is invalid'}`
}

/** The schema with `additionalProperties: false` on every object that lists its properties, and metadata left open. */
function closeObjects(schema: Schema, path = ''): Schema {
  const closed: Schema = { ...schema }
  if (schema.properties) {
    const properties = schema.properties as Record<string, Schema>
    closed.properties = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, key === 'metadata' && path === '' ? child : closeObjects(child, `${path}/${key}`)]),
    )
    if (!schema['x-kubernetes-preserve-unknown-fields']) closed.additionalProperties = false
  }
  if (schema.items) closed.items = closeObjects(schema.items as Schema, `${path}/items`)
  return closed
}

/** Paths of schema nodes the API server would refuse as not structural: each node with properties or items must say its type. */
export function unstructuredNodes(schema: Schema, path = ''): string[] {
  const found: string[] = []
  if ((schema.properties || schema.items) && typeof schema.type !== 'string') found.push(path || '/')
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) found.push(...unstructuredNodes(child, `${path}/${key}`))
  if (schema.items) found.push(...unstructuredNodes(schema.items as Schema, `${path}/items`))
  return found
}

/** The schema node a printer column's simple `.a.b` JSONPath names (filters like `[?(…)]` step into the array's items). */
export function schemaAt(schema: Schema, jsonPath: string): Schema | undefined {
  let node: Schema | undefined = schema
  for (const step of jsonPath
    .replace(/\[\?\(.*?\)\]/g, '.[]')
    .split('.')
    .filter(Boolean)) {
    node = step === '[]' ? (node?.items as Schema | undefined) : (node?.properties as Record<string, Schema> | undefined)?.[step]
  }
  return node
}
