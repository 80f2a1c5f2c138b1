import { open } from 'node:fs/promises'

/** Creates the file at `path` (failing if it exists) holding `bytes`, flushed to the disk before it resolves. */
export async function writeDurably(path: string, bytes: Uint8Array | string, mode?: number): Promise<void> {
  const handle = await open(path, 'wx', mode)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Flushes a directory, so that the names just made or renamed in it survive a crash. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r')
  await handle.sync().finally(() => handle.close())
}
