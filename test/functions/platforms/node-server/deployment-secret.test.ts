import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDeploymentSecret } from '../../../../core/crypto/deployment-key.ts'
import { nodeDeploymentSecrets } from '../../../../functions/platforms/node-server/deployment-secret.ts'
import { diskSecrets } from '../../../../functions/platforms/node-server/secret-keepers.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

let dir: string | undefined
afterEach(async () => dir && removeTempDir(dir))

describe('the deployment secret of hapedge serve on local disk', () => {
  it('is made once in the data directory, readable by its owner only, long enough, and the same for concurrent starts', async () => {
    dir = await makeTempDir('hapedge-secret')
    const path = join(dir, 'deployment-secret')
    const starts = await Promise.all([1, 2, 3].map(() => nodeDeploymentSecrets(diskSecrets(dir!), { create: true }, {})))
    expect(new Set(starts.map((start) => start!.secrets.current)).size).toBe(1)
    expect(starts.filter((start) => start!.source === `${path} (new)`)).toHaveLength(1)
    expect(() => checkDeploymentSecret(starts[0]!.secrets.current)).not.toThrow()
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(await nodeDeploymentSecrets(diskSecrets(dir), { create: false }, {})).toEqual({ secrets: starts[0]!.secrets, source: path })
  })

  it('is HAPEDGE_SECRET when set, and none when unset and not to be made', async () => {
    dir = await makeTempDir('hapedge-secret')
    const environment = { HAPEDGE_SECRET: 'from-the-environment-0123456789abcdef', HAPEDGE_PREVIOUS_SECRET: 'the-previous-one-0123456789abcdefghij' }
    expect(await nodeDeploymentSecrets(diskSecrets(dir), { create: true }, environment)).toEqual({
      secrets: { current: environment.HAPEDGE_SECRET, previous: environment.HAPEDGE_PREVIOUS_SECRET },
      source: 'HAPEDGE_SECRET',
    })
    expect(await nodeDeploymentSecrets(diskSecrets(dir), { create: false }, {})).toBeUndefined()
  })
})
