import { z } from 'zod'
import { isWrappedClusterKey } from '../crypto/cluster-key.ts'
import { isSealed } from '../crypto/seal.ts'
import type { Sealer } from '../crypto/sealer.ts'
import { dnsLabel, objectName } from '../syntax/fields.ts'
import type { KubernetesCredentials } from '../ports/cluster-writer.ts'

const httpsUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return new URL(value).protocol === 'https:'
    } catch {
      return false
    }
  }, 'must be an https URL (a bearer token is never sent in the clear)')

/** The `HAProxyCfg` the function writes status to; its name defaults to the cluster's id. */
const statusResource = z.strictObject({ namespace: dnsLabel.default('hapedge'), name: objectName.optional() })

/** How an operator gives the function access to a cluster's API server: sent once, stored sealed. */
export const kubernetesAccessInput = z.strictObject({
  server: httpsUrl,
  token: z.string().min(1).max(8192),
  /** The server's CA, base64 PEM as in a kubeconfig's `certificate-authority-data`. */
  caData: z
    .string()
    .max(65536)
    .regex(/^[A-Za-z0-9+/=\s]*$/, 'must be base64')
    .optional(),
  resource: statusResource.default({ namespace: 'hapedge' }),
})

/** As stored in the cluster's record: the token and CA sealed under the cluster's data key, so a reader of the bucket learns neither. */
export const kubernetesAccess = z.strictObject({
  server: httpsUrl,
  resource: z.strictObject({ namespace: dnsLabel, name: objectName }),
  sealed: z.string().refine(isSealed, 'must be a sealed value'),
})

export const wrappedDataKey = z.string().refine(isWrappedClusterKey, 'must be a wrapped cluster key')

export type KubernetesAccessInput = z.output<typeof kubernetesAccessInput>
export type KubernetesAccess = z.output<typeof kubernetesAccess>

const context = (cluster: string) => `cluster/${cluster}/kubernetes`

export async function sealAccess(sealer: Sealer, dataKey: string, cluster: string, input: KubernetesAccessInput): Promise<KubernetesAccess> {
  const secret = JSON.stringify({ token: input.token, ...(input.caData ? { caData: input.caData.replace(/\s+/g, '') } : {}) })
  return {
    server: input.server,
    resource: { namespace: input.resource.namespace, name: input.resource.name ?? cluster },
    sealed: await sealer.seal(dataKey, secret, context(cluster)),
  }
}

export async function openAccess(sealer: Sealer, dataKey: string, cluster: string, access: KubernetesAccess): Promise<KubernetesCredentials> {
  const secret = JSON.parse(await sealer.open(dataKey, access.sealed, context(cluster))) as { token: string; caData?: string }
  return { server: access.server, ...secret }
}
