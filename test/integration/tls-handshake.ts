import { connect } from 'node:tls'

export interface Handshake {
  /** The served certificate's subject alternative names (Node's format), or why the handshake failed. */
  served?: string
  error?: string
}

/** One TLS handshake with the HTTPS bind, with this SNI name (none when undefined): which certificate HAProxy serves, if any. */
export function handshake(port: number, servername: string | undefined): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...(servername === undefined ? {} : { servername }) })
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')))
    socket.once('secureConnect', () => {
      const served = socket.getPeerCertificate().subjectaltname
      socket.end()
      resolve({ served })
    })
    socket.once('error', (error) => resolve({ error: error.message }))
  })
}
