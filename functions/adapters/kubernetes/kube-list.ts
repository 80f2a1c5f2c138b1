import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { KubeConfig } from '@kubernetes/client-node'
import type { KubeObject } from './kube-object.ts'

/** An API server answer other than 200, with its code (410 when the resourceVersion or continue token expired). */
export class KubeRequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Lists a collection page by page, as raw JSON (the client's typed APIs would turn objects into
 * model classes, which hapedge would then have to turn back), with the kubeconfig's own
 * credentials and CA.
 */
export async function listAll(
  config: KubeConfig,
  path: string,
  query: Record<string, string>,
  pageSize = 500,
): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const items: KubeObject[] = []
  let next: string | undefined
  let resourceVersion = ''
  do {
    const page = (await getJson(config, path, { ...query, limit: String(pageSize), ...(next ? { continue: next } : {}) })) as {
      items?: KubeObject[]
      metadata?: { resourceVersion?: string; continue?: string }
    }
    items.push(...(page.items ?? []))
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion
    next = page.metadata?.continue || undefined
  } while (next)
  return { items, resourceVersion }
}

async function getJson(config: KubeConfig, path: string, query: Record<string, string>): Promise<unknown> {
  const cluster = config.getCurrentCluster()
  if (!cluster) throw new Error('the kubeconfig names no current cluster')
  const url = new URL(cluster.server + path)
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  const options: { headers?: Record<string, string>; agent?: unknown } = {}
  await config.applyToHTTPSOptions(options)
  const request = url.protocol === 'http:' ? httpRequest : httpsRequest
  return new Promise((resolve, reject) => {
    const call = request(url, { method: 'GET', headers: { ...options.headers, accept: 'application/json' }, agent: options.agent as never }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        if (response.statusCode === 200) {
          try {
            return resolve(JSON.parse(text))
          } catch (error) {
            return reject(new Error(`GET ${url.pathname}: the answer is not JSON: ${(error as Error).message}`))
          }
        }
        const message = (() => {
          try {
            return (JSON.parse(text) as { message?: string }).message ?? text
          } catch {
            return text
          }
        })()
        reject(new KubeRequestError(response.statusCode ?? 0, `GET ${url.pathname}: ${response.statusCode} ${message.slice(0, 300)}`))
      })
    })
    call.on('error', (error) => reject(new Error(`GET ${url.pathname}: ${error.message}`)))
    call.end()
  })
}
