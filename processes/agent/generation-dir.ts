import { link, lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { insideDir } from '../../functions/adapters/generation-files/inside-dir.ts'
import { randomBytes } from 'node:crypto'
import { inLane } from './dir-lane.ts'
import { byDirectory, sameFiles } from './file-groups.ts'

const GENERATIONS = '.generations'
/** Directories of files shared by the generations whose directory holds the same files: `.shared/<name>-<random>/`. */
const SHARED = '.shared'
export const CURRENT = 'current'
const KEPT = 3

/**
 * A generation's files on disk, switched all at once: each generation is staged in its own
 * directory (`.generations/<manifest>/`), then the `current` symlink is replaced by a
 * rename, so HAProxy (`-f DIR/current`) and a crash see the old files or the new ones, never a
 * mix. The two generations before are kept for a rollback.
 */
export async function installGeneration(
  dir: string,
  manifest: string,
  files: ReadonlyMap<string, string>,
  previous?: Installed,
  bytesOf?: BytesOf,
): Promise<string> {
  await stageGeneration(dir, manifest, files, previous, bytesOf)
  return switchCurrent(dir, manifest)
}

/**
 * Writes a generation into its own directory, which it returns, without making it current: what
 * `haproxy -c` checks first. A top-level file the previous generation had unchanged is linked,
 * not written; a subdirectory (`maps/`, `tls/`) is a symlink to a shared directory, the
 * previous generation's when it holds the same files: at 20,000 Ingresses `tls/` holds some
 * 2,000 certificates, and a generation that changed none of them costs one symlink, not 2,000
 * links made and, two generations later, removed. A changed subdirectory is a new shared
 * directory, its unchanged files linked from the previous one. Staging and pruning take turns
 * (dir-lane.ts), so pruning never removes a shared directory a staging is about to name.
 */
export function stageGeneration(dir: string, manifest: string, files: ReadonlyMap<string, string>, previous?: Installed, bytesOf?: BytesOf): Promise<string> {
  return inLane(dir, async () => {
    const target = join(dir, GENERATIONS, manifest)
    if (await exists(target)) return target
    const staging = `${target}.${randomBytes(4).toString('hex')}.tmp`
    const before = previous && join(dir, GENERATIONS, previous.manifest)
    const { top, directories } = byDirectory(files)
    await mkdir(staging, { recursive: true })
    const placed = top.map(([path, text]) => ({ path, text, file: insideDir(staging, path) }))
    await Promise.all([
      writeFiles(placed, before, previous, bytesOf),
      ...[...directories].map(async ([name, inside]) => {
        const shared = before && sameFiles(inside, previous.files, name) ? await sharedTarget(join(before, name)) : undefined
        const target = shared ?? join('..', '..', SHARED, `${name}-${randomBytes(6).toString('hex')}`)
        await symlink(target, insideDir(staging, name))
        if (shared) return
        const into = resolve(staging, target)
        await mkdir(into, { recursive: true })
        const prefix = `${name}/`
        await writeFiles(
          inside.map(([path, text]) => ({ path, text, file: insideDir(into, path.slice(prefix.length)) })),
          before,
          previous,
          bytesOf,
        )
      }),
    ])
    await rename(staging, target)
    return target
  })
}

/** Writes each file, or links the previous generation's where it had the same text: a change costs the files it changed. */
async function writeFiles(
  placed: readonly { path: string; text: string; file: string }[],
  before: string | undefined,
  previous: Installed | undefined,
  bytesOf: BytesOf | undefined,
): Promise<void> {
  await Promise.all([...new Set(placed.map(({ file }) => dirname(file)))].map((parent) => mkdir(parent, { recursive: true })))
  await Promise.all(
    placed.map(({ path, text, file }) =>
      before && previous!.files.get(path) === text ? link(insideDir(before, path), file) : writeFile(file, bytesOf?.(path, text) ?? text),
    ),
  )
}

/** The bytes to write for a file, where the caller has them (a spliced map's, see EncodedMaps); undefined: its text is written. */
export type BytesOf = (path: string, text: string) => Uint8Array | undefined

/** What the previous generation's subdirectory links to, when it is a shared directory (a generation staged before shared ones were is not). */
async function sharedTarget(path: string): Promise<string | undefined> {
  const target = await readlink(path).catch(() => undefined)
  return target?.startsWith(join('..', '..', SHARED, '')) ? target : undefined
}

/** Points `current` at a staged generation, by a rename: HAProxy and a crash see the old files or the new ones. */
export async function switchCurrent(dir: string, manifest: string): Promise<string> {
  const pointer = join(dir, `.${CURRENT}.${randomBytes(4).toString('hex')}`)
  await symlink(join(GENERATIONS, manifest), pointer)
  await rename(pointer, join(dir, CURRENT))
  return join(dir, CURRENT)
}

export interface Installed {
  manifest: string
  files: Map<string, string>
  /** The generation `current` was taken as, when that was recorded beside it: neither its files nor its manifest hold the number. */
  generation?: number
}

/** Beside `current`: `{generation, manifest}`, the generation it was last taken as. */
const TAKEN_AS = '.current-generation.json'

/**
 * Records the generation `current` was taken as, so that an agent started later (after
 * `--once`, or a restart) reports it from the start. Written after `current` moves, and read
 * only while it names the same manifest: a crash between the two loses the number, never
 * names the wrong one.
 */
export async function recordTakenAs(dir: string, generation: number, manifest: string): Promise<void> {
  const written = join(dir, `${TAKEN_AS}.${randomBytes(4).toString('hex')}`)
  await writeFile(written, JSON.stringify({ generation, manifest }))
  await rename(written, join(dir, TAKEN_AS))
}

async function takenAs(dir: string, manifest: string): Promise<number | undefined> {
  const recorded = await readFile(join(dir, TAKEN_AS), 'utf8').then(
    (text) => JSON.parse(text) as unknown,
    () => undefined,
  )
  const { generation, manifest: named } = (recorded ?? {}) as { generation?: unknown; manifest?: unknown }
  return named === manifest && Number.isSafeInteger(generation) ? (generation as number) : undefined
}

/** The generation `current` points to, with its files (and its number, when recorded); undefined before the first install. */
export async function installedGeneration(dir: string): Promise<Installed | undefined> {
  let target: string
  try {
    target = await readlink(join(dir, CURRENT))
  } catch {
    return undefined
  }
  const root = resolve(dir, target)
  const files = new Map<string, string>()
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name)
    // A subdirectory is a symlink to a shared directory (or, staged before those, a directory): its files are read through it.
    if (entry.isFile()) files.set(entry.name, await readFile(path, 'utf8'))
    else if ((await stat(path)).isDirectory())
      for (const inside of await readdir(path, { recursive: true, withFileTypes: true })) {
        const file = join(inside.parentPath, inside.name)
        if (inside.isFile()) files.set(`${entry.name}/${relative(path, file).split(sep).join('/')}`, await readFile(file, 'utf8'))
      }
  }
  const manifest = target.split('/').pop()!
  const generation = await takenAs(dir, manifest)
  return generation === undefined ? { manifest, files } : { manifest, files, generation }
}

/** Removes all but the newest generations beside `current` (kept for a rollback by hand), then the shared directories none of those names. */
export function pruneGenerations(dir: string, current: string): Promise<void> {
  return inLane(dir, async () => {
    const root = join(dir, GENERATIONS)
    const entries = await Promise.all(
      (await readdir(root)).map(async (name) => ({ name, mtime: (await lstat(join(root, name)).catch(() => undefined))?.mtimeMs })),
    )
    const old = entries.flatMap(({ name, mtime }) => (name !== current && mtime !== undefined ? [{ name, mtime }] : [])).sort((a, b) => b.mtime - a.mtime)
    for (const entry of old.slice(KEPT - 1)) await rm(join(root, entry.name), { recursive: true, force: true })
    const named = new Set<string>()
    for (const name of await readdir(root))
      for (const entry of await readdir(join(root, name), { withFileTypes: true }).catch(() => []))
        if (entry.isSymbolicLink()) named.add((await readlink(join(root, name, entry.name))).split('/').pop()!)
    const shared = join(dir, SHARED)
    for (const name of await readdir(shared).catch(() => [])) if (!named.has(name)) await rm(join(shared, name), { recursive: true, force: true })
  })
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}
