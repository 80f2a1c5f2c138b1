import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

describe('hapedge serve with the admin token in HAPEDGE_ADMIN_TOKEN', () => {
  const given = 'an-admin-token-given-by-a-kubernetes-secret'
  let tmp: string
  let served: Served
  beforeAll(async () => {
    tmp = await makeTempDir('hapedge-admin-token')
    served = await startServe(['--data', join(tmp, 'data')], { HAPEDGE_ADMIN_TOKEN: given })
  })
  afterAll(async () => {
    await served?.stop()
    await removeTempDir(tmp)
  })

  it('says where the token comes from without printing it, where pod logs would keep it, and serves that token', async () => {
    expect(served.output()).toContain('admin token: from HAPEDGE_ADMIN_TOKEN (not printed)')
    expect(served.output()).not.toContain(given)
    const clusters = await fetch(`${served.url}/v1/clusters`, { headers: { authorization: `Bearer ${given}` } })
    expect(clusters.status).toBe(200)
  })
})
