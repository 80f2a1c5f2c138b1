import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseAllDocuments, type ParseOptions, type DocumentOptions, type SchemaOptions } from 'yaml'

/** The repository's `infra/` folder. */
export const INFRA = fileURLToPath(new URL('../../infra/', import.meta.url))

/** What every Kubernetes object has; the rest is read by the test that knows its kind. */
export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  // Manifests are untyped YAML: a test narrows what it reads.
  [field: string]: any
}

/** One document of a manifest file, and where it came from (`cluster/haproxy.yaml#1`). */
export interface Manifest {
  where: string
  object: KubeObject
}

/** Every `*.yaml` file under `infra/`, as paths relative to it (`cluster/haproxy.yaml`), sorted. */
export function infraYamlFiles(dir = INFRA): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.yaml'))
    .map((path) => relative(INFRA, join(dir, path)))
    .sort()
}

/** The documents of one YAML file under `infra/` (one or many); a syntax error throws with the file's name. */
export function readYamlDocuments(path: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): unknown[] {
  return parseAllDocuments(readFileSync(join(INFRA, path), 'utf8'), options).map((document, index) => {
    if (document.errors.length > 0) throw new Error(`infra/${path}#${index}: ${document.errors.map((error) => error.message).join('; ')}`)
    return document.toJS()
  })
}

/** The Kubernetes objects of the given files under `infra/`. */
export function readManifests(paths: string[]): Manifest[] {
  return paths.flatMap((path) => readYamlDocuments(path).map((object, index) => ({ where: `${path}#${index}`, object: object as KubeObject })))
}

/** `kind/namespace/name`, or `kind/name` for a cluster-scoped object. */
export const objectKey = ({ kind, metadata }: Pick<KubeObject, 'kind' | 'metadata'>): string =>
  [kind, metadata.namespace, metadata.name].filter((part) => part !== undefined).join('/')
