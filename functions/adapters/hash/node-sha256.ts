import { createHash } from 'node:crypto'
import type { HashText } from '../../../core/hash.ts'

/** Node's synchronous SHA-256: the same digest as WebCrypto's, without a thread-pool round trip per blob. */
export const nodeSha256: HashText = (content) => createHash('sha256').update(content).digest('hex')
