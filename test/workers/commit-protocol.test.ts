import { env } from 'cloudflare:test'
import { createR2Store } from '../../functions/adapters/storage/r2-store.ts'
import { commitProtocolContract } from '../support/contracts/commit-contract.ts'

commitProtocolContract('r2 (workerd, local R2 through the STORE binding)', async () => ({ store: createR2Store({ bucket: env.STORE }) }))
