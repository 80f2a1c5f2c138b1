import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'

/** The corpus's `.yaml` files, in byte order (as `hapedge render --in DIR` walks them). */
export async function corpusFiles(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => join(dir, name))
}

/**
 * Files that define an object (`kind/namespace/name`, namespace defaulting to `default` as the CLI
 * does) that another file defines too. Found independently of hapedge, with the `yaml` parser;
 * documents that do not parse are ignored.
 */
export async function filesSharingIdentities(files: readonly string[]): Promise<Set<string>> {
  const filesByIdentity = new Map<string, Set<string>>()
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
      let value: unknown
      try {
        value = doc.toJS()
      } catch {
        continue
      }
      for (const object of objectsOf(value)) {
        const identity = `${object.kind}/${object.metadata?.namespace ?? 'default'}/${object.metadata?.name}`
        filesByIdentity.set(identity, (filesByIdentity.get(identity) ?? new Set()).add(file))
      }
    }
  }
  return new Set([...filesByIdentity.values()].filter((set) => set.size > 1).flatMap((set) => [...set]))
}

type Meta = { kind: string; metadata?: { namespace?: string; name?: string } }

function objectsOf(value: unknown): Meta[] {
  if (Array.isArray(value)) return value.flatMap(objectsOf)
  if (typeof value !== 'object' || value === null) return []
  const object = value as Meta & { items?: unknown }
  if (typeof object.kind !== 'string') return []
  if (object.kind.endsWith('List') && Array.isArray(object.items)) return object.items.flatMap(objectsOf)
  return [object]
}
