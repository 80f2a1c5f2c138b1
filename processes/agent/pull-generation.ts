import { headAnswer } from '../../core/api/head-answer.ts'
import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { fetchFailure } from '../fetch-failure.ts'
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
 * sha256 (a mismatch fails with the key, and nothing is returned). HEAD is asked with the
 * generation already held, and answers with the blobs that one lacks; each is cached only under
 * the sha256 it hashes to, and the generation is then read from the verified manifest down, so
 * a blob the answer left out, or one that does not hash right, is fetched on its own.
 */
export async function pullGeneration(options: SourceOptions, context: TreeContext, known?: string): Promise<Pulled | 'unchanged' | 'none'> {
  const fetcher = options.fetcher ?? fetch
  const url = `${options.source}/v1/clusters/${options.cluster}/head${known ? `?have=${known}` : ''}`
  const response = await fetcher(url, { headers: { authorization: `Bearer ${options.token}` } }).catch((error: unknown) => {
    throw new Error(`cannot reach ${options.source}: ${fetchFailure(error)}`, { cause: error })
  })
  if (response.status === 404) return 'none'
  if (!response.ok) throw new Error(`GET head: ${response.status} ${await response.text()}`)
  const head = parseAnswer(headAnswer, await jsonAnswer(response, `GET ${url}`), `the function's HEAD (GET ${url})`)
  if (head.manifest === known) return 'unchanged'
  for (const [sha256, text] of Object.entries(head.blobs ?? {})) {
    if (context.hash(text) === sha256) context.nodes.add(sha256, text)
  }
  const files = await readGeneration(httpSource(options.source, options.cluster, options.token, fetcher), options.cluster, head.manifest, context)
  return { generation: head.generation, manifest: head.manifest, files }
}
