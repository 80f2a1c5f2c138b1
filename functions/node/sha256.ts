import { createHash } from 'node:crypto'
import type { Sha256 } from '../../core/hash.ts'

/** Node's synchronous SHA-256: the same digest as WebCrypto's, without a thread-pool round trip per blob. */
export const nodeSha256: Sha256 = (content) => createHash('sha256').update(content).digest('hex')
