import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * One HTTP/1.1 request whose request target is sent byte for byte (`%2F`, `..`, NUL, backslash),
 * which fetch and node:http would normalise or refuse before it left. Reads until the server
 * closes the connection (`Connection: close`); a chunked body is joined.
 */
export function rawRequest(
  url: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { host, hostname, port } = new URL(url)
  const { method = 'GET', headers = {}, body, timeoutMs = 10_000 } = options
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`, 'latin1')
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`${method} ${JSON.stringify(target)}: no answer in ${timeoutMs} ms`)))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      try {
        resolve(parse(Buffer.concat(chunks).toString('latin1')))
      } catch (error) {
        reject(error)
      }
    })
    // Written, not ended: a half-closed client is one Node's server may drop before it answers.
    socket.write(request)
  })
}

function parse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n')
  if (split < 0) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`)
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  )
  const raw = text.slice(split + 4)
  const body = headers['transfer-encoding'] === 'chunked' ? dechunk(raw) : raw
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') }
}

function dechunk(raw: string): string {
  let body = ''
  for (let at = 0; ; ) {
    const lineEnd = raw.indexOf('\r\n', at)
    const size = parseInt(raw.slice(at, lineEnd), 16)
    if (!size) return body
    body += raw.slice(lineEnd + 2, lineEnd + 2 + size)
    at = lineEnd + 2 + size + 2
  }
}
