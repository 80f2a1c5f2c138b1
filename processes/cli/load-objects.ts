import { type FileHandle, open, readdir, realpath, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { LineCounter, parseAllDocuments } from 'yaml'
import { CommandError } from './command-error.ts'

/**
 * Reads the Kubernetes objects that `hapedge render --in PATH` is given: files and directory trees
 * of JSON and YAML, multi-document streams, and `List`s, flattened into one ordered list of objects.
 * Nothing here checks what the objects are beyond "a mapping"; the caller validates them.
 */

/** One object read from the input, with where it came from: `dir/a.yaml#2`, `a.json`, `list.yaml#1 items[3]`. */
export interface LoadedObject {
  object: unknown
  source: string
}

/**
 * Input that cannot be read. `file` is the path as the user spelled it (or as found under a directory
 * they named); `field` is where in that file, when known (`document 2, line 4 column 3`,
 * `document 1, items[3]`). The message carries both: `examples/bad.yaml: document 2, line 4 column 3: …`.
 */
export class InputError extends CommandError {
  override readonly name = 'InputError'
  readonly file: string
  readonly field?: string

  constructor(file: string, problem: string, field?: string, options?: { cause?: unknown }) {
    super(field ? `${file}: ${field}: ${problem}` : `${file}: ${problem}`, options)
    this.file = file
    if (field !== undefined) this.field = field
  }
}

/** A single file larger than this is refused before it is read. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024

/** Extensions taken when walking a directory, case-sensitively as kubectl does (an explicitly named file is read whatever its name). */
const WALK_EXTENSIONS = new Set(['.json', '.yaml', '.yml'])

/**
 * Loads every object from `paths`, in order. A path is a file or a directory; directories are walked
 * recursively, each directory's entries in C-locale (UTF-8 byte) order, taking `.json`, `.yaml` and
 * `.yml` files and skipping names that start with `.`. Throws InputError on the first bad input.
 */
export async function loadObjects(paths: readonly string[]): Promise<LoadedObject[]> {
  const out: LoadedObject[] = []
  for (const path of paths) {
    for (const file of await listFiles(path)) {
      const text = await readLimited(file)
      for (const loaded of parseFile(file, text)) out.push(loaded)
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Finding files

async function listFiles(path: string): Promise<string[]> {
  const info = await statOrThrow(path)
  if (info.isFile()) return [path]
  if (info.isDirectory()) {
    const files: string[] = []
    await walk(path, files, new Set())
    return files
  }
  throw new InputError(path, 'not a regular file or directory')
}

/** Depth-first, entries sorted per directory (as `filepath.Walk` and kubectl do); symlinks followed, cycles cut. */
async function walk(dir: string, files: string[], seen: Set<string>): Promise<void> {
  const real = await realpath(dir).catch((error: unknown) => {
    throw fsError(dir, error)
  })
  if (seen.has(real)) return
  seen.add(real)

  const names = await readdir(dir).catch((error: unknown) => {
    throw fsError(dir, error)
  })
  names.sort(compareBytes)
  for (const name of names) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    const info = await stat(path).catch(() => undefined) // a dangling symlink is not an input
    if (!info) continue
    if (info.isDirectory()) await walk(path, files, seen)
    else if (info.isFile() && WALK_EXTENSIONS.has(extname(name))) files.push(path)
  }
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

async function statOrThrow(path: string) {
  try {
    return await stat(path)
  } catch (error) {
    throw fsError(path, error)
  }
}

/** Reads a file in chunks, giving up as soon as it passes MAX_FILE_BYTES (whatever stat said). */
async function readLimited(file: string): Promise<string> {
  const tooBig = (size: string) => new InputError(file, `file is ${size}, more than the ${MAX_FILE_BYTES / (1024 * 1024)} MiB limit`)
  let handle: FileHandle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    throw fsError(file, error)
  }
  try {
    const { size } = await handle.stat()
    if (size > MAX_FILE_BYTES) throw tooBig(`${size} bytes`)
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.alloc(Math.min(Math.max(size - total, 0), MAX_FILE_BYTES) + 64 * 1024)
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > MAX_FILE_BYTES) throw tooBig('growing')
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } catch (error) {
    throw error instanceof InputError ? error : fsError(file, error)
  } finally {
    await handle.close()
  }
}

function fsError(path: string, error: unknown): InputError {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'ENOENT' || code === 'ENOTDIR') return new InputError(path, 'no such file or directory', undefined, { cause: error })
  if (code === 'EACCES' || code === 'EPERM') return new InputError(path, 'permission denied', undefined, { cause: error })
  if (code === 'EISDIR') return new InputError(path, 'is a directory', undefined, { cause: error })
  return new InputError(path, error instanceof Error ? error.message : String(error), undefined, { cause: error })
}

// ---------------------------------------------------------------------------------------------
// Parsing

function parseFile(file: string, raw: string): LoadedObject[] {
  try {
    return parseText(file, raw)
  } catch (error) {
    // Anything else the parsers throw (a RangeError from absurdly deep nesting, say) is still bad input.
    if (error instanceof InputError) throw error
    throw new InputError(file, error instanceof Error ? error.message : String(error), undefined, { cause: error })
  }
}

function parseText(file: string, raw: string): LoadedObject[] {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  const json = parseJson(file, text)
  if (json.ok) return expand(file, file, undefined, json.value)
  return parseYaml(file, text)
}

type JsonResult = { ok: true; value: unknown } | { ok: false }

/**
 * A `.json` file must be JSON. Any other file is JSON if it starts with `{` or `[` and parses as JSON;
 * otherwise (flow-style YAML, say) it is YAML.
 */
function parseJson(file: string, text: string): JsonResult {
  const strict = extname(file) === '.json'
  if (!strict && !/^\s*[[{]/.test(text)) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    if (!strict) return { ok: false }
    throw new InputError(file, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`, undefined, { cause: error })
  }
}

function parseYaml(file: string, text: string): LoadedObject[] {
  const lineCounter = new LineCounter()
  const docs = parseAllDocuments(text, {
    // YAML 1.2 core schema: plain JSON-like data. No custom tags, and `!!binary`, `!!set`, `!!timestamp`…
    // are not resolved into non-JSON values. `<<` merge keys work, as they do for kubectl.
    schema: 'core',
    customTags: [],
    resolveKnownTags: false,
    merge: true,
    uniqueKeys: true,
    prettyErrors: false,
    lineCounter,
  })

  const out: LoadedObject[] = []
  let index = 0
  for (const doc of docs) {
    index += 1
    const where = `document ${index}`
    const [error] = doc.errors
    if (error) {
      const position = error.pos[0] >= 0 ? lineCounter.linePos(error.pos[0]) : undefined
      const at = position ? `${where}, line ${position.line} column ${position.col}` : where
      throw new InputError(file, error.message, at, { cause: error })
    }
    let value: unknown
    try {
      // maxAliasCount (default 100) stops alias "billion laughs" expansion; kept at the default.
      value = doc.toJS({ maxAliasCount: 100 })
    } catch (cause) {
      throw new InputError(file, cause instanceof Error ? cause.message : String(cause), where, { cause })
    }
    if (value === null || value === undefined) continue // empty document
    for (const loaded of expand(file, `${file}#${index}`, where, value)) out.push(loaded)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Lists

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `kind: List`, or any `…List` kind with an `items` array (`IngressList`). A `List` with no items is empty. */
function listItems(value: Record<string, unknown>): readonly unknown[] | undefined {
  const { kind, items } = value
  if (typeof kind !== 'string' || !kind.endsWith('List')) return undefined
  if (Array.isArray(items)) return items
  if (kind === 'List' && (items === undefined || items === null)) return []
  return undefined
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a sequence'
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : typeof value
}

/**
 * Flattens one document into objects: arrays and Lists give their items (nested Lists too), mappings
 * are objects. Iterative, so a deep nest of Lists cannot overflow the stack.
 */
function expand(file: string, source: string, where: string | undefined, value: unknown): LoadedObject[] {
  const out: LoadedObject[] = []
  // `suffix` is the location inside the document: '' or ' items[3]' or ' items[3].items[0]'.
  const stack: { value: unknown; suffix: string }[] = [{ value, suffix: '' }]
  while (stack.length > 0) {
    const next = stack.pop()!
    let items: readonly unknown[] | undefined
    let key = ''
    if (Array.isArray(next.value)) {
      items = next.value
    } else if (isMapping(next.value)) {
      items = listItems(next.value)
      key = 'items'
      if (!items) {
        out.push({ object: next.value, source: source + next.suffix })
        continue
      }
    } else {
      const inner = next.suffix.trim()
      const field = where && inner ? `${where}, ${inner}` : where || inner || undefined
      throw new InputError(file, `expected a Kubernetes object (a mapping), got ${describe(next.value)}`, field)
    }
    const prefix = !next.suffix ? ' ' : key ? `${next.suffix}.` : next.suffix
    for (let i = items.length - 1; i >= 0; i--) {
      stack.push({ value: items[i], suffix: `${prefix}${key}[${i}]` })
    }
  }
  return out
}
