import { z } from 'zod'
import { CLUSTER_ID } from '../commit/cluster-keys.ts'
import { dnsSubdomain } from '../kube/fields.ts'
import { bindAddress, DEFAULT_OPTIONS } from '../model/settings.ts'
import { agentOrigins } from './agent-origins.ts'

/** What an operator sends to register a cluster: its id and how its HAProxy serves. */
export const clusterRegistration = z.strictObject({
  id: z.string().regex(CLUSTER_ID, "must be a DNS label: lowercase letters, digits and '-', at most 63"),
  ingressClass: dnsSubdomain.default(DEFAULT_OPTIONS.ingressClass),
  configMap: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be namespace/name')
    .default(DEFAULT_OPTIONS.configMap),
  httpBind: bindAddress.default(DEFAULT_OPTIONS.httpBind),
  httpsBind: bindAddress.default(DEFAULT_OPTIONS.httpsBind),
  /** Origins the function may push new generations to (the agents' `--listen` addresses); none: agents poll. */
  agentOrigins: agentOrigins.default([]),
})

export type ClusterRegistration = z.output<typeof clusterRegistration>

/** A registered cluster as stored: its settings and the sha256 of its token (never the token). */
export const clusterRecord = clusterRegistration.extend({
  tokenSha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
})

export type ClusterRecord = z.infer<typeof clusterRecord>

export function optionsOf(record: ClusterRegistration) {
  const { ingressClass, configMap, httpBind, httpsBind } = record
  return { ingressClass, configMap, httpBind, httpsBind }
}
