import { link, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { insideDir } from '../../functions/adapters/generation-files/inside-dir.ts'
import { randomBytes } from 'node:crypto'

const GENERATIONS = '.generations'
export const CURRENT = 'current'
const KEPT = 3

/**
 * A generation's files on disk, switched all at once: each generation is written whole into its
 * own directory (`.generations/<manifest>/`), then the `current` symlink is replaced by a
 * rename, so HAProxy (`-f DIR/current`) and a crash see the old files or the new ones, never a
 * mix. The two generations before are kept for a rollback.
 */
export async function installGeneration(dir: string, manifest: string, files: ReadonlyMap<string, string>, previous?: Installed): Promise<string> {
  await stageGeneration(dir, manifest, files, previous)
  return switchCurrent(dir, manifest)
}

/** Writes a generation whole into its own directory, which it returns, without making it current: what `haproxy -c` checks first. */
export async function stageGeneration(dir: string, manifest: string, files: ReadonlyMap<string, string>, previous?: Installed): Promise<string> {
  const target = join(dir, GENERATIONS, manifest)
  if (!(await exists(target))) {
    const staging = `${target}.${randomBytes(4).toString('hex')}.tmp`
    const before = previous && join(dir, GENERATIONS, previous.manifest)
    const placed = [...files].map(([path, text]) => ({ path, text, file: insideDir(staging, path) }))
    await mkdir(staging, { recursive: true })
    await Promise.all([...new Set(placed.map(({ file }) => dirname(file)))].map((parent) => mkdir(parent, { recursive: true })))
    await Promise.all(
      placed.map(({ path, text, file }) =>
        // A file the previous generation had unchanged is linked, not written: a change costs the files it changed.
        before && previous.files.get(path) === text ? link(insideDir(before, path), file) : writeFile(file, text),
      ),
    )
    await rename(staging, target)
  }
  return target
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
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
  const manifest = target.split('/').pop()!
  const generation = await takenAs(dir, manifest)
  return generation === undefined ? { manifest, files } : { manifest, files, generation }
}

/** Removes all but the newest generations beside `current` (kept for a rollback by hand). */
export async function pruneGenerations(dir: string, current: string): Promise<void> {
  const root = join(dir, GENERATIONS)
  // A staging directory renamed by a sync beside this one is gone by its old name: it is not old.
  const entries = await Promise.all(
    (await readdir(root)).map(async (name) => ({ name, mtime: (await lstat(join(root, name)).catch(() => undefined))?.mtimeMs })),
  )
  const old = entries.flatMap(({ name, mtime }) => (name !== current && mtime !== undefined ? [{ name, mtime }] : [])).sort((a, b) => b.mtime - a.mtime)
  for (const entry of old.slice(KEPT - 1)) await rm(join(root, entry.name), { recursive: true, force: true })
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}
