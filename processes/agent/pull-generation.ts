import { headAnswer, type HeadAnswer } from '../../core/api/head-answer.ts'
import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import { compareText } from '../../core/compare-text.ts'
import type { MapLines } from '../../core/plan/map-updates.ts'
import { changedFiles, changedMapLines, changedTexts } from '../../core/reading/changed-files.ts'
import { NodeLoader } from '../../core/reading/node-loader.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { mapSplice, splicedText, type SplicePart } from '../../core/reading/spliced-map.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { fetchFailure } from '../fetch-failure.ts'
import { httpSource } from './http-source.ts'
import type { SignedHead } from './signed-heads.ts'

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
  /**
   * Read from a base: its manifest, the paths of the files that differ from the base's, and the
   * lines of each map that differ, found from the maps' chunk trees, so that a plan against the
   * base's files need not compare megabytes, nor every path of the generation; and how each map
   * spliced from the base's text was made of it, so that its bytes are made of the base's (EncodedMaps).
   */
  delta?: { since: string; paths: string[]; maps: Map<string, MapLines>; splices: Map<string, SplicePart[]> }
}

/** A generation's manifest and files, which a pull reads the next generation from. */
type Base = Pick<Pulled, 'manifest' | 'files'>

/**
 * The cluster's newest generation from the function's HTTP API, every blob checked against its
 * sha256 (a mismatch fails with the key, and nothing is returned). HEAD is asked with the
 * generation already held, and answers with the blobs that one lacks; each is cached only under
 * the sha256 it hashes to, and the generation is then read from the verified manifest down, so
 * a blob the answer left out, or one that does not hash right, is fetched on its own.
 *
 * `signed`, a head the function pushed signed for this run, is taken as HEAD's answer instead of asking for it.
 *
 * `base`, a generation this process pulled (and so verified) before, or the one it runs, is where the read starts:
 * only the files whose roots differ from its manifest's are read, and the others are its texts (the
 * same strings, which the plan compares at no cost), so that a one-path change at 20,000 Ingresses
 * reads the files it changed instead of every file of the generation, compares only the chunks
 * of its maps that changed, and makes a changed map's text from the base's with those lines put in.
 */
export async function pullGeneration(
  options: SourceOptions,
  context: TreeContext,
  known?: string,
  base?: Base,
  signed?: SignedHead,
): Promise<Pulled | 'unchanged' | 'none'> {
  const fetcher = options.fetcher ?? fetch
  const head = signed ?? (await readHead(options, fetcher, known))
  if (head === 'none') return 'none'
  if (head.manifest === known) return 'unchanged'
  for (const [sha256, text] of Object.entries(head.blobs ?? {})) {
    if (context.hash(text) === sha256) context.nodes.add(sha256, text)
  }
  const source = httpSource(options.source, options.cluster, options.token, fetcher)
  // A read from the base that fails (its nodes gone from the cache and from storage, say) is made whole, which fails only if the new generation does not read.
  const since = base && (await filesSince(source, options.cluster, base, head.manifest, context).catch(() => undefined))
  const read = since ?? { files: await readGeneration(source, options.cluster, head.manifest, context) }
  return { generation: head.generation, manifest: head.manifest, ...read }
}

/** `GET …/head?have=`: HEAD, with the blobs a reader of `known` lacks; 'none' before the cluster's first generation. */
async function readHead(options: SourceOptions, fetcher: typeof fetch, known: string | undefined): Promise<HeadAnswer | 'none'> {
  const url = `${options.source}/v1/clusters/${options.cluster}/head${known ? `?have=${known}` : ''}`
  const response = await fetcher(url, { headers: { authorization: `Bearer ${options.token}` } }).catch((error: unknown) => {
    throw new Error(`cannot reach ${options.source}: ${fetchFailure(error)}`, { cause: error })
  })
  if (response.status === 404) return 'none'
  if (!response.ok) throw new Error(`GET head: ${response.status} ${await response.text()}`)
  return parseAnswer(headAnswer, await jsonAnswer(response, `GET ${url}`), `the function's HEAD (GET ${url})`)
}

/**
 * Generation `manifest`'s files: `base`'s, with those whose roots differ read (each node verified as it loads) and those gone dropped;
 * and the lines of each map that differ from `base`'s.
 */
async function filesSince(source: ObjectStore, cluster: string, base: Base, manifest: string, context: TreeContext): Promise<Pick<Pulled, 'files' | 'delta'>> {
  const loader = new NodeLoader(source, clusterKeys(cluster), context)
  const changes = await changedFiles(base.manifest, manifest, loader, context)
  const maps = await changedMapLines(changes, loader, context)
  // A changed map is its text in the base with the changed lines put in; only a map that does not splice (and any other file) is read whole.
  const splices = new Map<string, SplicePart[]>()
  for (const { path, before, after } of changes) {
    const lines = maps.get(path)
    const text = lines && base.files.get(path)
    const parts = text !== undefined && lines && before && after ? mapSplice(text, lines.changes, before, after) : undefined
    if (parts) splices.set(path, parts)
  }
  const { after } = await changedTexts(
    changes.flatMap(({ path, after: root }) => (splices.has(path) ? [] : [root ? { path, after: root } : { path }])),
    loader,
    context,
  )
  const files = new Map(base.files)
  for (const { path } of changes) {
    const parts = splices.get(path)
    const text = parts ? splicedText(base.files.get(path)!, parts) : after.get(path)
    if (text === undefined) files.delete(path)
    else files.set(path, text)
  }
  // In the manifest's order, as a whole read gives them: a new file goes where its path sorts.
  const added = changes.some((change) => !change.before)
  const delta = { since: base.manifest, paths: changes.map(({ path }) => path), maps, splices }
  return { files: added ? new Map([...files].sort(([a], [b]) => compareText(a, b))) : files, delta }
}
