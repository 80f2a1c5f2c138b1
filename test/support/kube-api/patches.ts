import { KubeError } from './kube-error.ts'
import type { KubeObject } from './selectors.ts'

/** A PATCH body applied by its content type: RFC 6902 JSON patch, or a merge patch (strategic merge taken as a plain merge); anything else is 415. */
export function applyPatch(current: KubeObject, patch: unknown, contentType: string): KubeObject {
  let patched: KubeObject
  if (/^application\/json-patch\+json/.test(contentType)) {
    try {
      patched = jsonPatch(current, patch as JsonPatchOperation[]) as KubeObject
    } catch (error) {
      throw new KubeError(422, 'Invalid', `the JSON patch could not be applied: ${(error as Error).message}`)
    }
  } else if (/^application\/(strategic-)?merge-patch\+json/.test(contentType)) {
    patched = mergePatch(current, patch) as KubeObject
    // A merge patch without a resourceVersion applies to whatever is stored; with one, it must be the stored one.
    if (!(patch as KubeObject).metadata?.resourceVersion) patched.metadata = { ...patched.metadata, resourceVersion: undefined }
  } else
    throw new KubeError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`,
    )
  return patched
}

/** RFC 7386 JSON merge patch: objects merge key by key, `null` deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else result[key] = mergePatch(result[key], value)
  }
  return result
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy'
  path: string
  value?: unknown
  from?: string
}

/** RFC 6902 JSON patch, the default content type of `@kubernetes/client-node`'s patch calls; throws on a failed `test` or a missing path. */
export function jsonPatch(target: unknown, operations: JsonPatchOperation[]): unknown {
  let document = structuredClone(target)
  for (const operation of operations) {
    const { op, path } = operation
    if (op === 'test') {
      if (JSON.stringify(read(document, path)) !== JSON.stringify(operation.value)) throw new Error(`test failed at ${path}`)
    } else if (op === 'remove') document = write(document, path, undefined, 'remove')
    else if (op === 'add' || op === 'replace') document = write(document, path, structuredClone(operation.value), op)
    else {
      const value = structuredClone(read(document, operation.from ?? ''))
      if (op === 'move') document = write(document, operation.from ?? '', undefined, 'remove')
      document = write(document, path, value, 'add')
    }
  }
  return document
}

const pointer = (path: string): string[] =>
  path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))

function read(document: unknown, path: string): unknown {
  let value = document
  for (const part of pointer(path)) {
    if (typeof value !== 'object' || value === null || !(part in value)) throw new Error(`no value at ${path}`)
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function write(document: unknown, path: string, value: unknown, op: 'add' | 'replace' | 'remove'): unknown {
  const parts = pointer(path)
  const last = parts.pop()
  if (last === undefined) return value
  const parent = read(document, parts.length ? `/${parts.join('/')}` : '')
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last)
    if (op === 'add') parent.splice(index, 0, value)
    else if (index >= parent.length) throw new Error(`no value at ${path}`)
    else if (op === 'remove') parent.splice(index, 1)
    else parent[index] = value
  } else if (typeof parent === 'object' && parent !== null) {
    const fields = parent as Record<string, unknown>
    if (op !== 'add' && !(last in fields)) throw new Error(`no value at ${path}`)
    if (op === 'remove') delete fields[last]
    else fields[last] = value
  } else throw new Error(`no container at ${path}`)
  return document
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
