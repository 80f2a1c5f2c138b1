import { KubeConfig } from '@kubernetes/client-node'

/**
 * What hapedge stores per cluster to reach its API server: a URL and a bearer token (a
 * ServiceAccount's), and the CA that signs the server's certificate when it is not publicly
 * trusted. From a Cloudflare Worker only a publicly trusted server works (outbound TLS there
 * takes no custom CA, and client-node ignores `caData` under workerd).
 */
export interface KubeCredentials {
  server: string
  token: string
  /** The CA certificate(s), PEM, base64-encoded as in a kubeconfig's `certificate-authority-data`. */
  caData?: string
}

const NAME = 'hapedge'

/** A KubeConfig from credentials alone, without files: one cluster, one user, one context. */
export function kubeConfigFrom(credentials: KubeCredentials): KubeConfig {
  let url: URL
  try {
    url = new URL(credentials.server)
  } catch {
    throw new Error(`kubernetes: server ${JSON.stringify(credentials.server)} is not a URL`)
  }
  if (url.protocol !== 'https:') throw new Error(`kubernetes: server ${credentials.server} must be https (a bearer token is never sent in the clear)`)
  if (!credentials.token) throw new Error('kubernetes: a bearer token is required')
  const config = new KubeConfig()
  config.loadFromOptions({
    clusters: [
      { name: NAME, server: url.origin + url.pathname.replace(/\/$/, ''), skipTLSVerify: false, ...(credentials.caData ? { caData: credentials.caData } : {}) },
    ],
    users: [{ name: NAME, token: credentials.token }],
    contexts: [{ name: NAME, cluster: NAME, user: NAME }],
    currentContext: NAME,
  })
  return config
}
