import { z } from 'zod'
import { CLUSTER_ID } from '../keys/cluster-keys.ts'
import { dnsSubdomain } from '../syntax/fields.ts'
import { sha256Hex } from '../syntax/sha256-hex.ts'
import { bindAddress } from '../model/bind-address.ts'
import { gatewayPortList } from '../model/gateway-port-setting.ts'
import { canonicalOptions, DEFAULT_OPTIONS, snippetPolicy, type ClusterOptions } from '../model/settings.ts'
import { agentOrigins } from './agent-origins.ts'
import { kubernetesAccess, kubernetesAccessInput, wrappedDataKey } from './kubernetes-access.ts'

const retention = z.strictObject({
  generations: z
    .int({ error: (issue) => (issue.input === undefined ? 'is required: how many generations to keep' : 'must be a whole number') })
    .min(1, 'must be 1 to 1000')
    .max(1000, 'must be 1 to 1000'),
})

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
  /** Gateway listener ports served on sockets of their own (`{port, protocol, bind}`); a listener on another port is PortUnavailable. */
  gatewayPorts: gatewayPortList.optional(),
  /** Whether Services' `hapedge.io/backend-config-snippet` lines are rendered into their backends. */
  snippets: snippetPolicy.default(DEFAULT_OPTIONS.snippets),
  /** How many generations garbage collection keeps for this cluster; without it, the deployment's setting (50 unless changed). */
  retention: retention.optional(),
  /** Origins the function may push new generations to (the agents' `--listen` addresses); none: agents poll. */
  agentOrigins: agentOrigins.default([]),
  /** Access to the cluster's API server, for the `HAProxyCfg` status and Events: stored sealed, never shown again. */
  kubernetes: kubernetesAccessInput.optional(),
})

export type ClusterRegistration = z.output<typeof clusterRegistration>

/** A registered cluster as stored: its settings and the sha256 of its token (never the token). */
export const clusterRecord = clusterRegistration.extend({
  /**
   * Read as stored: a record registered under an older, looser check must still open (the fleet
   * list and garbage collection read every record), so its admin can PATCH a valid address in.
   */
  httpBind: z.string().default(DEFAULT_OPTIONS.httpBind),
  httpsBind: z.string().default(DEFAULT_OPTIONS.httpsBind),
  kubernetes: kubernetesAccess.optional(),
  /** The cluster's data key, wrapped by the deployment's key: what its sealed values open with. */
  dataKey: wrappedDataKey.optional(),
  tokenSha256: sha256Hex,
  createdAt: z.string(),
  /** The token before the last rotation, still accepted until `previousTokenExpiresAt` so agents can switch without downtime. */
  previousTokenSha256: sha256Hex.optional(),
  previousTokenExpiresAt: z.string().optional(),
  /** Set by `DELETE`: from then on the cluster's token is refused, and garbage collection deletes its data after `purgeAfter`. */
  removedAt: z.string().optional(),
  purgeAfter: z.string().optional(),
})

export type ClusterRecord = z.infer<typeof clusterRecord>

/** What the record stores besides what the registry adds (token digests, creation and removal times). */
export const clusterSettings = clusterRecord.omit({
  tokenSha256: true,
  createdAt: true,
  previousTokenSha256: true,
  previousTokenExpiresAt: true,
  removedAt: true,
  purgeAfter: true,
})
export type ClusterSettings = z.output<typeof clusterSettings>

/** A record as the admin API shows it: no token digest, no key, no sealed credentials. */
export function publicRecord(record: ClusterRecord) {
  const { tokenSha256: _token, previousTokenSha256: _previous, dataKey: _key, kubernetes, ...shown } = record
  return { ...shown, ...(kubernetes ? { kubernetes: { server: kubernetes.server, resource: kubernetes.resource } } : {}) }
}

/** The record's rendering options: what the cluster's files are derived under. */
export function optionsOf(record: ClusterOptions): ClusterOptions {
  return canonicalOptions(record)
}
