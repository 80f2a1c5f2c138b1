import { z } from 'zod'
import { clusterRegistration } from './cluster-record.ts'

const field = clusterRegistration.shape

/**
 * A change to a cluster's settings, merged into its record: each field is checked by the same
 * schema as at registration, but without its default, so a field left out keeps its value.
 * `id` may be sent only unchanged (the route checks); API server access is set at registration.
 */
export const settingsPatch = z.strictObject({
  id: z.string().optional(),
  ingressClass: field.ingressClass.unwrap().optional(),
  configMap: field.configMap.unwrap().optional(),
  httpBind: field.httpBind.unwrap().optional(),
  httpsBind: field.httpsBind.unwrap().optional(),
  gatewayPorts: field.gatewayPorts,
  agentOrigins: field.agentOrigins.unwrap().optional(),
  snippets: field.snippets.unwrap().optional(),
  /** `null` removes it: the deployment's retention applies again. */
  retention: field.retention.unwrap().nullable().optional(),
})

export type SettingsPatch = z.output<typeof settingsPatch>
