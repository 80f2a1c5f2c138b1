/** gzip and gunzip of whole buffers: the Web standard streams here; Node passes zlib's (functions/adapters/gzip/node-gzip.ts), ~5× cheaper there. */
export interface Gzip {
  compress(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>
  decompress(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>
}

export const webGzip: Gzip = {
  compress: (bytes) => through(bytes, new CompressionStream('gzip')),
  decompress: (bytes) => through(bytes, new DecompressionStream('gzip')),
}

/**
 * How a node's text is stored: gzipped when that is shorter, else as the text itself; either
 * way it is named by the sha256 of its text. gzip's first two bytes (0x1f 0x8b) never begin
 * UTF-8 text (0x8b is a continuation byte), so a body tells which it is, and nodes stored before
 * compression read as they are.
 */
export async function nodeBody(text: string, gzip: Gzip = webGzip): Promise<Uint8Array | string> {
  if (text.length < WORTH_COMPRESSING) return text
  // Its UTF-8 length is the encoding's: a second pass over the text to count it was a scan of every byte a commit writes.
  const bytes = encoder.encode(text)
  const compressed = await gzip.compress(bytes)
  return compressed.byteLength < bytes.byteLength ? compressed : text
}

/** A stored node's text; throws NodeBodyError when the body is not UTF-8 text, or is gzip that does not decompress to it. */
export async function nodeText(body: Uint8Array, gzip: Gzip = webGzip): Promise<string> {
  let bytes = body
  if (isCompressedBody(body)) {
    try {
      bytes = await gzip.decompress(body)
    } catch (error) {
      throw new NodeBodyError(`gzip that does not decompress: ${(error as Error).message}`)
    }
  }
  try {
    return decoder.decode(bytes)
  } catch {
    throw new NodeBodyError(bytes === body ? 'not UTF-8 text' : 'gzip of something other than UTF-8 text')
  }
}

export function isCompressedBody(body: Uint8Array): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b
}

export class NodeBodyError extends Error {
  override name = 'NodeBodyError'
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** Below this, gzip's header and trailer (18 bytes) outweigh what it could save. */
const WORTH_COMPRESSING = 64

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const writer = stream.writable.getWriter()
  // Not awaited: the write completes as the readable side drains below, and a failure surfaces there.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => undefined)
  writer.close().catch(() => undefined)
  return new Uint8Array(await new Response(stream.readable).arrayBuffer())
}
