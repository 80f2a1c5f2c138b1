import { readGeneration } from '../../core/commit/read-generation.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { httpSource } from './http-source.ts'

export interface SourceOptions {
  source: string
  cluster: string
  token: string
  fetcher?: typeof fetch
}

export interface Pulled {
  generation: number
  manifest: string
  files: Map<string, string>
}

/**
 * The cluster's newest generation from the function's HTTP API, every blob checked against its
 * sha256 (a mismatch fails with the key, and nothing is returned). Blobs already in `context`'s
 * cache are not fetched again, so following a change costs the blobs it changed.
 */
export async function pullGeneration(options: SourceOptions, context: TreeContext, known?: string): Promise<Pulled | 'unchanged' | 'none'> {
  const fetcher = options.fetcher ?? fetch
  const response = await fetcher(`${options.source}/v1/clusters/${options.cluster}/head`, { headers: { authorization: `Bearer ${options.token}` } })
  if (response.status === 404) return 'none'
  if (!response.ok) throw new Error(`GET head: ${response.status} ${await response.text()}`)
  const head = (await response.json()) as { generation: number; manifest: string }
  if (head.manifest === known) return 'unchanged'
  const files = await readGeneration(httpSource(options.source, options.cluster, options.token, fetcher), options.cluster, head.manifest, context)
  return { generation: head.generation, manifest: head.manifest, files }
}
