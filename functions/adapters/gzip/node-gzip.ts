import { gunzipSync, gzipSync } from 'node:zlib'
import type { Gzip } from '../../../core/tree/node-body.ts'

/** zlib's synchronous gzip: in Node, the Web streams cost about five times the CPU per node (a stream pair each). */
export const nodeGzip: Gzip = {
  compress: (bytes) => gzipSync(bytes),
  decompress: (bytes) => gunzipSync(bytes),
}
