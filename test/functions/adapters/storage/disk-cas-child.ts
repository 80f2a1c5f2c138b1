// A second process for the disk store's cross-process CAS test: `node --import tsx disk-cas-child.ts ROOT KEY COUNT`.
import { createDiskStore } from '../../../../functions/adapters/storage/disk-store.ts'
import { casIncrement } from '../../../support/contracts/cas-counter.ts'

const [root, key, count] = process.argv.slice(2)
const store = createDiskStore({ root: root! })
let attempts = 0
for (let i = 0; i < Number(count); i++) attempts += await casIncrement(store, key!)
process.stdout.write(`${attempts}\n`)
