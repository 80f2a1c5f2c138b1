import { isClusterIp, isDnsLabel, isHostnameField, isHttpPath, isIpv4, isIpv6, isObjectName, isPortName, isPortNumber, isTimestamp } from '../syntax/fields.ts'
import { isRecord, type Kind } from './objects.ts'
import { isBase64Field, TLS_SECRET_TYPE } from './secret.ts'

/**
 * The common, plainly valid forms of the kinds a cluster holds by the thousand, read without
 * zod: a full rebuild reads every object, and zod's general machinery was a third of its time
 * and most of its garbage. A reader gives exactly what the kind's schema gives (the same fields,
 * in the same order, present-but-undefined ones kept) or FAIL for anything else, valid or not,
 * which the schema then reads, with its messages. test/core/kube/fast-read.test.ts holds them equal.
 * A part sent in its read form already (an Ingress's spec as the API server writes it, a whole
 * object trimmed as these read it) is given back as it is, not copied: a full rebuild held each
 * object twice, the request's and the read's.
 */

export const FAIL: unique symbol = Symbol('not a common form')
type Read = (value: unknown) => unknown

interface Field {
  key: string
  read: Read
  optional: boolean
}

const required = (key: string, read: Read): Field => ({ key, read, optional: false })
const optional = (key: string, read: Read): Field => ({ key, read, optional: true })

/**
 * A zod object in its default (strip) mode: the fields in the schema's order, a required one
 * present, an optional one kept when present (even undefined, which an optional field accepts).
 */
function object(fields: readonly Field[]): Read {
  return (input) => {
    if (!isRecord(input)) return FAIL
    // Made at the first field read otherwise than it was sent: until then, the input is what the read gives.
    let out: Record<string, unknown> | undefined
    let present = 0
    for (const field of fields) {
      const { key, optional } = field
      // One lookup for a field sent; a second only to tell a field absent from one sent as undefined.
      const value = input[key]
      if (value === undefined && !(key in input)) {
        if (optional) continue
        return FAIL
      }
      const read = optional && value === undefined ? undefined : field.read(value)
      if (read === FAIL) return FAIL
      if (out === undefined && read !== value) out = fieldsOf(input, fields, key)
      if (out !== undefined) out[key] = read
      present++
    }
    return out ?? (hasOnly(input, fields, present) ? input : fieldsOf(input, fields))
  }
}

/** The fields of `input` the schema names, in its order, as they were sent, up to `before` (all without it). */
function fieldsOf(input: Record<string, unknown>, fields: readonly Field[], before?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const { key } of fields) {
    if (key === before) break
    if (key in input) out[key] = input[key]
  }
  return out
}

/**
 * Whether `input`'s keys are the `present` fields it has, in the schema's order: then the read is
 * the input itself, not a copy (objects are never changed in place), and it writes out as the copy would.
 */
function hasOnly(input: Record<string, unknown>, fields: readonly Field[], present: number): boolean {
  let index = 0
  let count = 0
  for (const key in input) {
    // Each key is the next field the input has.
    while (index < fields.length && !(fields[index]!.key in input)) index++
    if (index === fields.length || fields[index]!.key !== key) return false
    index++
    count++
  }
  return count === present
}

function array(item: Read, max: number, min = 0): Read {
  return (input) => {
    if (!Array.isArray(input) || input.length > max || input.length < min) return FAIL
    // Made at the first item read otherwise than it was sent (sized up front: pushing gives a short array room for 17).
    let out: unknown[] | undefined
    for (let i = 0; i < input.length; i++) {
      const read = item(input[i])
      if (read === FAIL) return FAIL
      if (out === undefined && read !== input[i]) out = input.slice(0, i)
      if (out !== undefined) out[i] = read
    }
    return out ?? input
  }
}

const when =
  (test: (value: unknown) => boolean): Read =>
  (value) =>
    test(value) ? value : FAIL
const nullable =
  (read: Read): Read =>
  (value) =>
    value === null ? null : read(value)
const oneOf = (...values: string[]) => when((value) => values.includes(value as string))
const literal = oneOf
const isString = (value: unknown) => typeof value === 'string'
const isBoolean = (value: unknown) => typeof value === 'boolean'
const atMost = (length: number) => when((value) => typeof value === 'string' && value.length <= length)
/** Only what the schema only checks for absence is read fast: present, the schema reads it. */
const never: Read = () => FAIL

const dnsLabel = when(isDnsLabel)
const objectName = when(isObjectName)
const hostname = when(isHostnameField)

const portNumber = object([required('number', when(isPortNumber))])
const portName = object([required('name', when(isPortName))])

/** `{ number }` or `{ name }`: the union's first option for a number, its second for a name. */
const servicePort: Read = (input) => {
  if (!isRecord(input)) return FAIL
  if ('number' in input) return 'name' in input ? FAIL : portNumber(input)
  return portName(input)
}

const ingressBackend = object([required('service', object([required('name', dnsLabel), required('port', servicePort)])), optional('resource', never)])

/** A path that names its path (the schema's check then has nothing to say). */
const ingressPath = object([
  required('path', when(isHttpPath)),
  required('pathType', oneOf('Exact', 'Prefix', 'ImplementationSpecific')),
  required('backend', ingressBackend),
])

const ingress = object([
  required('apiVersion', literal('networking.k8s.io/v1')),
  required('kind', literal('Ingress')),
  // Labels and annotations (records, and hapedge's own annotations checked) are left to the schema.
  required(
    'metadata',
    object([
      required('name', objectName),
      required('namespace', dnsLabel),
      optional('creationTimestamp', when(isTimestamp)),
      optional('labels', never),
      optional('annotations', never),
    ]),
  ),
  required(
    'spec',
    object([
      optional('ingressClassName', atMost(253)),
      optional('defaultBackend', ingressBackend),
      optional('tls', array(object([optional('hosts', array(hostname, 1000)), optional('secretName', objectName)]), 1000)),
      // A rule's `host: ""` (read as no host) is left to the schema.
      optional('rules', array(object([optional('host', hostname), optional('http', object([required('paths', array(ingressPath, 1000, 1))]))]), 1000)),
    ]),
  ),
])

const namespacedName = [required('name', objectName), required('namespace', dnsLabel)]

const service = object([
  required('apiVersion', literal('v1')),
  required('kind', literal('Service')),
  // Annotations (of which a transform keeps the snippet) are left to the schema.
  required('metadata', object([...namespacedName, optional('annotations', never)])),
  required(
    'spec',
    object([
      optional('type', oneOf('ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName')),
      optional(
        'ports',
        array(object([optional('name', dnsLabel), required('port', when(isPortNumber)), optional('protocol', oneOf('TCP', 'UDP', 'SCTP'))]), 1000),
      ),
      optional('clusterIP', when(isClusterIp)),
    ]),
  ),
])

const protocol = oneOf('TCP', 'UDP', 'SCTP')
const sliceShape = object([
  required('apiVersion', literal('discovery.k8s.io/v1')),
  required('kind', literal('EndpointSlice')),
  required('metadata', object([...namespacedName, required('labels', object([required('kubernetes.io/service-name', dnsLabel)]))])),
  required('addressType', oneOf('IPv4', 'IPv6', 'FQDN')),
  optional(
    'endpoints',
    nullable(
      array(
        object([
          required('addresses', array(when(isString), 100, 1)),
          optional('conditions', object(['ready', 'serving', 'terminating'].map((key) => optional(key, nullable(when(isBoolean)))))),
        ]),
        1000,
      ),
    ),
  ),
  optional(
    'ports',
    nullable(
      array(
        object([
          optional(
            'name',
            nullable((value) => (value === '' ? '' : dnsLabel(value))),
          ),
          optional('port', nullable(when(isPortNumber))),
          optional('protocol', nullable(protocol)),
        ]),
        100,
      ),
    ),
  ),
])

/** The slice's own check: every address of an IP family is one. */
const endpointSlice: Read = (input) => {
  const slice = sliceShape(input) as { addressType: string; endpoints?: { addresses: string[] }[] | null } | typeof FAIL
  if (slice === FAIL || slice.addressType === 'FQDN') return slice
  const valid = slice.addressType === 'IPv4' ? isIpv4 : isIpv6
  for (const endpoint of slice.endpoints ?? []) if (!endpoint.addresses.every(valid)) return FAIL
  return slice
}

const base64 = when(isBase64Field)

const secret = object([
  required('apiVersion', literal('v1')),
  required('kind', literal('Secret')),
  required('type', literal(TLS_SECRET_TYPE)),
  required('metadata', object(namespacedName)),
  required('data', object([required('tls.crt', base64), required('tls.key', base64), optional('ca.crt', base64)])),
])

/** The fast reader of each kind that has one. */
export const FAST_READERS: Readonly<Partial<Record<Kind, Read>>> = { Ingress: ingress, Service: service, EndpointSlice: endpointSlice, Secret: secret }
