import { relative, resolve } from 'node:path'

/** A rendered file's path inside `dir`; a path that would name `dir` itself or leave it is refused. */
export function insideDir(dir: string, path: string): string {
  const full = resolve(dir, path)
  const rel = relative(resolve(dir), full)
  if (rel === '' || rel.startsWith('..') || resolve(rel) === rel) throw new Error(`refusing to write outside ${dir}: ${path}`)
  return full
}
