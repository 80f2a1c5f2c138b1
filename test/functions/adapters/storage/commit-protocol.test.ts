import { createDiskStore } from '../../../../functions/adapters/storage/disk-store.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { commitProtocolContract } from '../../../support/contracts/commit-contract.ts'
import { slowStore } from '../../../support/store-faults.ts'
import { makeTempDir, removeTempDir } from '../../../support/temp-dir.ts'

commitProtocolContract('in memory', async () => ({ store: createMemoryStore() }))
commitProtocolContract('in memory, with network-like latency', async () => ({ store: slowStore(createMemoryStore()) }))
commitProtocolContract('local disk', async () => {
  const root = await makeTempDir('hapedge-commit')
  return { store: createDiskStore({ root }), cleanup: () => removeTempDir(root) }
})
