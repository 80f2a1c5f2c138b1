import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { newSession, sessionText } from '../../../core/resync/session.ts'
import { createDiskStore } from '../../../functions/adapters/storage/disk-store.ts'
import { hapedge } from '../../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

describe('hapedge gc and resync sessions', () => {
  let data: string
  beforeEach(async () => void (data = await makeTempDir('hapedge-gc-sessions')))
  afterEach(() => removeTempDir(data))

  it('deletes the sessions past their time, pages and all, and keeps the live ones', async () => {
    const store = createDiskStore({ root: data })
    const keys = clusterKeys('prod')
    const expired = newSession(crypto.randomUUID(), new Date(Date.now() - 2 * 3_600_000), 3_600_000, 10)
    const live = newSession(crypto.randomUUID(), new Date(), 3_600_000, 10)
    for (const session of [expired, live]) {
      await store.put(keys.resyncRecord(session.session), sessionText(session))
      await store.put(keys.resyncPageKeys(session.session, 0), '{"keys":[]}')
      await store.put(keys.resyncPageItems(session.session, 0), '{"items":[]}')
    }
    const run = await hapedge(['gc', '--data', data, '--cluster', 'prod', '--keep', '1', '--grace', '0s'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('prod: deleted 1 expired resync session(s), 3 objects')
    const left: string[] = []
    for await (const { key } of store.list(keys.resyncSessions)) left.push(key)
    expect(left.sort()).toEqual([keys.resyncPageItems(live.session, 0), keys.resyncPageKeys(live.session, 0), keys.resyncRecord(live.session)].sort())
  })
})
