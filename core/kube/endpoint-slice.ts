import { z } from 'zod'
import { dnsLabel, isIpv4, isIpv6, portNumber, quote } from '../syntax/fields.ts'
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
    endpoints: z
      .array(z.object({ addresses: z.array(z.string()).min(1).max(100), conditions: conditions.optional() }))
      .max(1000)
      .nullable()
      .optional(),
    ports: z.array(endpointPort).max(100).nullable().optional(),
  })
  .superRefine((slice, ctx) => {
    if (slice.addressType === 'FQDN') return
    const valid = slice.addressType === 'IPv4' ? isIpv4 : isIpv6
    slice.endpoints?.forEach((endpoint, e) =>
      endpoint.addresses.forEach((value, a) => {
        if (!valid(value))
          ctx.addIssue({ code: 'custom', path: ['endpoints', e, 'addresses', a], message: `${quote(value)} must be an ${slice.addressType} address` })
      }),
    )
  })

export type EndpointSlice = z.infer<typeof endpointSlice>
