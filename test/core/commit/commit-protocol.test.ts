import { createMemoryStore } from '../../../functions/storage/memory-store.ts'
import { commitProtocolContract } from '../../support/contracts/commit-contract.ts'
import { slowStore } from '../../support/store-faults.ts'

commitProtocolContract('in memory', async () => ({ store: createMemoryStore() }))
commitProtocolContract('in memory, with network-like latency', async () => ({ store: slowStore(createMemoryStore()) }))
