import { z } from 'zod'
import { dnsLabel, ipv4Address, ipv6Address, portNumber } from './fields.ts'
import { namespacedMetadata } from './metadata.ts'

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name'

const conditions = z.object({
  ready: z.boolean().nullable().optional(),
  serving: z.boolean().nullable().optional(),
  terminating: z.boolean().nullable().optional(),
})

const endpointPort = z.object({
  name: dnsLabel.or(z.literal('')).nullable().optional(),
  port: portNumber.nullable().optional(),
  protocol: z.enum(['TCP', 'UDP', 'SCTP']).nullable().optional(),
})

const endpointSliceMetadata = namespacedMetadata.pick({ name: true, namespace: true }).extend({
  labels: z.object({ [SERVICE_NAME_LABEL]: dnsLabel }, { error: `must carry the "${SERVICE_NAME_LABEL}" label` }),
})

export const endpointSlice = z
  .object({
    apiVersion: z.literal('discovery.k8s.io/v1'),
    kind: z.literal('EndpointSlice'),
    metadata: endpointSliceMetadata,
    addressType: z.enum(['IPv4', 'IPv6', 'FQDN']),
    endpoints: z.array(z.object({ addresses: z.array(z.string()).min(1).max(100), conditions: conditions.optional() })).max(1000).nullable().optional(),
    ports: z.array(endpointPort).max(100).nullable().optional(),
  })
  .superRefine((slice, ctx) => {
    const address = slice.addressType === 'IPv4' ? ipv4Address : slice.addressType === 'IPv6' ? ipv6Address : null
    if (!address) return
    slice.endpoints?.forEach((endpoint, e) =>
      endpoint.addresses.forEach((value, a) => {
        const result = address.safeParse(value)
        if (!result.success) ctx.addIssue({ code: 'custom', path: ['endpoints', e, 'addresses', a], message: result.error.issues[0]?.message ?? 'invalid address' })
      }),
    )
  })

export type EndpointSlice = z.infer<typeof endpointSlice>
