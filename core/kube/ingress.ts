import { z } from 'zod'
import { readAnnotations } from '../annotations/read-annotations.ts'
import { readsRegexPaths } from '../annotations/regex-paths.ts'
import { dnsLabel, hostname, httpPath, isHttpPath, objectName, portName, portNumber } from '../syntax/fields.ts'
import { LEGACY_CLASS_ANNOTATION } from './annotations.ts'
import { namespacedMetadata } from './metadata.ts'

export const serviceBackendPort = z.union(
  [z.object({ number: portNumber, name: z.undefined().optional() }), z.object({ name: portName, number: z.undefined().optional() })],
  { error: 'must set exactly one of "number" (1 to 65535) and "name" (an IANA service name)' },
)

export const ingressBackend = z
  .object({
    service: z.object({ name: dnsLabel, port: serviceBackendPort }).optional(),
    resource: z.object({ kind: z.string(), name: z.string() }).optional(),
  })
  .check((ctx) => {
    if (ctx.value.resource)
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['resource'], message: 'resource backends are not supported; use a service backend' })
    else if (!ctx.value.service) ctx.issues.push({ code: 'custom', input: ctx.value, path: ['service'], message: 'is required' })
  })

export const pathType = z.enum(['Exact', 'Prefix', 'ImplementationSpecific'])

/**
 * A path as written: an HTTP path (httpPath), or, only on an Ingress that reads its paths as
 * regular expressions (use-regex), printable text the engine reads or refuses (path-pattern.ts).
 * The Ingress's own check tells which; the text never reaches the configuration as written.
 */
const writtenPath = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .refine((path) => path.startsWith('/') || path.startsWith('^/'), { message: 'must be an absolute path starting with "/"' })
  .refine((path) => /^[\x21-\x7e]*$/.test(path), { message: 'may contain only printable ASCII characters, without whitespace' })

export const httpIngressPath = z
  .object({
    path: writtenPath.optional(),
    pathType,
    backend: ingressBackend,
  })
  .check((ctx) => {
    if (ctx.value.pathType !== 'ImplementationSpecific' && ctx.value.path === undefined) {
      ctx.issues.push({ code: 'custom', input: ctx.value, path: ['path'], message: `is required for pathType ${ctx.value.pathType}` })
    }
  })

export const ingressRule = z.object({
  /** `host: ""` is written by real manifests and means no host, as in the API server. */
  host: z
    .literal('')
    .transform(() => undefined)
    .or(hostname)
    .optional(),
  http: z.object({ paths: z.array(httpIngressPath).min(1, 'must list at least one path').max(1000) }).optional(),
})

export const ingressTls = z.object({
  hosts: z.array(hostname).max(1000).optional(),
  secretName: objectName.optional(),
})

export const ingress = z
  .object({
    apiVersion: z.literal('networking.k8s.io/v1'),
    kind: z.literal('Ingress'),
    // Annotations are read by the engine (core/model/ingress-annotations.ts): what it does not honour is a warning, not a malformed Ingress.
    metadata: namespacedMetadata,
    spec: z.object({
      ingressClassName: z.string().max(253).optional(),
      defaultBackend: ingressBackend.optional(),
      tls: z.array(ingressTls).max(1000).optional(),
      rules: z.array(ingressRule).max(1000).optional(),
    }),
  })
  .check((ctx) => {
    const { rules } = ctx.value.spec
    let regex: boolean | undefined
    rules?.forEach((rule, r) =>
      rule.http?.paths.forEach(({ path, pathType }, p) => {
        if (path === undefined || isHttpPath(path)) return
        regex ??= readsRegexPaths(readAnnotations(ctx.value.metadata.annotations ?? {}).features)
        if (regex && pathType !== 'Exact') return
        for (const issue of httpPath.safeParse(path).error?.issues ?? [])
          ctx.issues.push({ code: 'custom', input: path, path: ['spec', 'rules', r, 'http', 'paths', p, 'path'], message: issue.message })
      }),
    )
  })

export type Ingress = z.infer<typeof ingress>
export type IngressBackend = z.infer<typeof ingressBackend>
export type ServiceBackendPort = z.infer<typeof serviceBackendPort>

/** The class an Ingress asks for: `spec.ingressClassName`, else the legacy annotation. */
export function requestedClass(input: { metadata?: unknown; spec?: unknown }): string | undefined {
  const spec = input.spec as { ingressClassName?: unknown } | undefined
  if (typeof spec?.ingressClassName === 'string') return spec.ingressClassName
  const metadata = input.metadata as { annotations?: Record<string, unknown> } | undefined
  const annotation = metadata?.annotations?.[LEGACY_CLASS_ANNOTATION]
  return typeof annotation === 'string' ? annotation : undefined
}
