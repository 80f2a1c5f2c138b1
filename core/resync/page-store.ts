import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { CorruptObject } from '../reading/errors.ts'
import type { PageItems, PageKeys, StagedPage } from './page.ts'

/** A page's two records: sending page n again replaces both. */
export async function storePage(store: ObjectStore, keys: ClusterKeys, session: string, page: number, staged: StagedPage): Promise<void> {
  await Promise.all([
    store.put(keys.resyncPageItems(session, page), JSON.stringify(staged.items)),
    store.put(keys.resyncPageKeys(session, page), JSON.stringify(staged.keys)),
  ])
}

export const readPageKeys = (store: ObjectStore, keys: ClusterKeys, session: string, page: number) =>
  readRecord<PageKeys>(store, keys.resyncPageKeys(session, page))

export const readPageItems = (store: ObjectStore, keys: ClusterKeys, session: string, page: number) =>
  readRecord<PageItems>(store, keys.resyncPageItems(session, page))

/** The numbers of the pages stored whole (both records), in order. */
export async function storedPages(store: ObjectStore, keys: ClusterKeys, session: string): Promise<number[]> {
  const prefix = keys.resyncPages(session)
  const records = new Map<number, number>()
  for await (const { key } of store.list(prefix)) {
    const match = /^(\d{6})\/(keys|items)$/.exec(key.slice(prefix.length))
    if (match) records.set(Number(match[1]), (records.get(Number(match[1])) ?? 0) + 1)
  }
  return [...records]
    .filter(([, count]) => count === 2)
    .map(([page]) => page)
    .sort((a, b) => a - b)
}

/** Every key of a session: its record and its pages'. */
export async function sessionObjects(store: ObjectStore, keys: ClusterKeys, session: string): Promise<string[]> {
  const objects: string[] = []
  for await (const { key } of store.list(keys.resyncSession(session))) objects.push(key)
  return objects
}

async function readRecord<T>(store: ObjectStore, key: string): Promise<T> {
  const stored = await store.get(key)
  if (!stored) throw new CorruptObject(key, 'missing, though its session lists it')
  try {
    return JSON.parse(new TextDecoder().decode(stored.body)) as T
  } catch (error) {
    throw new CorruptObject(key, `not JSON: ${(error as Error).message}`)
  }
}
