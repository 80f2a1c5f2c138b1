import { z } from 'zod'
import { clusterMetadata } from './metadata.ts'

export const IS_DEFAULT_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class'

export const ingressClass = z.object({
  apiVersion: z.literal('networking.k8s.io/v1'),
  kind: z.literal('IngressClass'),
  metadata: clusterMetadata.pick({ name: true, annotations: true }),
  spec: z.object({ controller: z.string().max(253).optional() }).optional(),
})

export type IngressClass = z.infer<typeof ingressClass>

export function isDefaultClass(ingressClass: IngressClass): boolean {
  return ingressClass.metadata.annotations?.[IS_DEFAULT_CLASS_ANNOTATION] === 'true'
}
