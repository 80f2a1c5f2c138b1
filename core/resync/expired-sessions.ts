import { clusterKeys, isClusterId } from '../keys/cluster-keys.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { hasExpired, parseSession } from './session.ts'

/** One cluster's resync sessions deleted by the garbage job: expired ones, and pages a deleted session left. */
export interface ExpiredSessions {
  cluster: string
  sessions: number
  objects: number
}

/**
 * Deletes the objects of the resync sessions that expired (never finished: they changed
 * nothing) or finished, and the pages of sessions with no record (left by a page written while
 * its session was abandoned) once older than `graceMs`. Clusters: those named, or every one
 * that holds a session.
 */
export async function collectExpiredSessions(store: ObjectStore, now: Date, graceMs: number, clusters?: readonly string[]): Promise<ExpiredSessions[]> {
  const outcomes: ExpiredSessions[] = []
  for (const cluster of clusters ?? (await clustersWithSessions(store))) {
    const keys = clusterKeys(cluster)
    const sessions = new Map<string, { objects: string[]; newest: number }>()
    for await (const { key, lastModified } of store.list(keys.resyncSessions)) {
      const id = key.slice(keys.resyncSessions.length).split('/')[0]!
      const session = sessions.get(id) ?? { objects: [], newest: 0 }
      session.objects.push(key)
      session.newest = Math.max(session.newest, lastModified.getTime())
      sessions.set(id, session)
    }
    const outcome: ExpiredSessions = { cluster, sessions: 0, objects: 0 }
    for (const [id, { objects, newest }] of sessions) {
      const stored = await store.get(keys.resyncRecord(id))
      const record = stored && parseSession(stored.body)
      const gone = record ? hasExpired(record, now) : newest < now.getTime() - graceMs
      if (!gone) continue
      // The record first, as an abandon does: a session half deleted is unknown, never half live.
      await store.delete([keys.resyncRecord(id)])
      await store.delete(objects)
      outcome.sessions++
      outcome.objects += objects.length
    }
    if (outcome.sessions > 0) outcomes.push(outcome)
  }
  return outcomes
}

async function clustersWithSessions(store: ObjectStore): Promise<string[]> {
  const clusters = new Set<string>()
  for await (const { key } of store.list('clusters/')) {
    const [, id, folder] = key.split('/')
    if (folder === 'resync' && id && isClusterId(id)) clusters.add(id)
  }
  return [...clusters]
}
