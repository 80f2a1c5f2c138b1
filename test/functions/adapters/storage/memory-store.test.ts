import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { objectStoreContract } from '../../../support/contracts/object-store-contract.ts'

objectStoreContract('memory', async () => ({ store: createMemoryStore(), honoursConditions: true }))
