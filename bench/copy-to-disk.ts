import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { ObjectStore } from '../core/ports/object-store.ts'

/**
 * Copies every object under `prefix` into the disk store's layout under `root` (a file per key),
 * with plain writes: seeding a benchmark, not committing, so no fsync per object.
 */
export async function copyToDisk(store: ObjectStore, prefix: string, root: string): Promise<void> {
  for await (const object of store.list(prefix)) {
    const path = join(root, object.key)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, (await store.get(object.key))!.body)
  }
}
