import { z } from 'zod'
import { dnsLabel, hostname, objectName, portNumber } from '../syntax/fields.ts'
import { GATEWAY_API } from './gateway-class.ts'
import { namespacedMetadata } from './metadata.ts'

/** A reference to another object as the Gateway API writes it: group and kind default to the caller's. */
export const objectReference = z.object({
  group: z.string().max(253).optional(),
  kind: z.string().max(63).optional(),
  name: objectName,
  namespace: dnsLabel.optional(),
})

const routeKind = z.object({ group: z.string().max(253).optional(), kind: z.string().min(1).max(63) })

export const listener = z.object({
  /** The `sectionName` routes attach by. */
  name: dnsLabel,
  hostname: hostname.optional(),
  port: portNumber,
  /** Any text: hapedge serves HTTP and HTTPS, and reports the others (gateway-listeners.ts). */
  protocol: z.string().min(1).max(255),
  tls: z
    .object({
      mode: z.string().max(63).optional(),
      certificateRefs: z.array(objectReference).max(64).optional(),
      /** Kept to be reported: hapedge sets no TLS option per listener. */
      options: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  allowedRoutes: z
    .object({
      namespaces: z.object({ from: z.string().max(63).optional(), selector: z.unknown().optional() }).optional(),
      kinds: z.array(routeKind).max(8).optional(),
    })
    .optional(),
})

export const gateway = z.object({
  apiVersion: z.literal(`${GATEWAY_API}/v1`),
  kind: z.literal('Gateway'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true, creationTimestamp: true }),
  spec: z.object({
    gatewayClassName: objectName,
    listeners: z.array(listener).min(1, 'must list at least one listener').max(64),
    /** Kept to be reported: hapedge serves on the cluster's binds, not on addresses a Gateway asks for. */
    addresses: z.array(z.unknown()).max(16).optional(),
  }),
})

export type Gateway = z.infer<typeof gateway>
export type Listener = z.infer<typeof listener>
export type ObjectReference = z.infer<typeof objectReference>
