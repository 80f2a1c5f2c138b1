import * as grpc from '@grpc/grpc-js'

/** A unary method of no protobuf, bytes in and bytes out, at a gRPC path (`/hapedge.Echo/Say`). */
function unary(path: string) {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: Buffer) => value,
    requestDeserialize: (value: Buffer) => value,
    responseSerialize: (value: Buffer) => value,
    responseDeserialize: (value: Buffer) => value,
  } as const
}

/** A gRPC server on loopback answering each of `paths` (`/hapedge.Echo/Say` by default) with `<name> got <message>`. */
export async function grpcServer(
  name: string,
  credentials: grpc.ServerCredentials,
  paths: readonly string[] = ['/hapedge.Echo/Say'],
): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server()
  for (const path of paths)
    server.register(
      path,
      (call: grpc.ServerUnaryCall<Buffer, Buffer>, reply: grpc.sendUnaryData<Buffer>) => reply(null, Buffer.from(`${name} got ${call.request}`)),
      (value: Buffer) => value,
      (value: Buffer) => value,
      'unary',
    )
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, port) => (error ? reject(error) : resolve(port))),
  )
  return { server, port }
}

/**
 * One unary gRPC call through HAProxy's HTTP bind (h2c, prior knowledge), or its HTTPS bind, with `host` as authority:
 * the answer, or the error whose `code` is the gRPC status the client saw.
 */
export async function grpcCall(...call: Parameters<typeof grpcExchange>): Promise<string> {
  return (await grpcExchange(...call)).reply
}

/** grpcCall's answer with the response headers the client received (gRPC's initial metadata), as text. */
export function grpcExchange(
  port: number,
  host: string,
  message: string,
  path = '/hapedge.Echo/Say',
  metadata: Record<string, string> = {},
  /** Over TLS (ALPN h2) to the HTTPS bind, `host` as SNI, trusting this CA. */
  ca?: string,
): Promise<{ reply: string; headers: Record<string, string> }> {
  const Client = grpc.makeGenericClientConstructor({ call: unary(path) }, 'Echo')
  const credentials = ca ? grpc.credentials.createSsl(Buffer.from(ca)) : grpc.credentials.createInsecure()
  const client = new Client(`127.0.0.1:${port}`, credentials, { 'grpc.default_authority': host, ...(ca ? { 'grpc.ssl_target_name_override': host } : {}) })
  const sent = new grpc.Metadata()
  for (const [key, value] of Object.entries(metadata)) sent.set(key, value)
  const headers: Record<string, string> = {}
  return new Promise<{ reply: string; headers: Record<string, string> }>((resolve, reject) => {
    const call = (
      client as unknown as {
        call: (m: Buffer, md: grpc.Metadata, o: grpc.CallOptions, cb: (e: Error | null, r?: Buffer) => void) => grpc.ClientUnaryCall
      }
    ).call(Buffer.from(message), sent, { deadline: Date.now() + 5000 }, (error, reply) => (error ? reject(error) : resolve({ reply: String(reply), headers })))
    call.on('metadata', (received: grpc.Metadata) => {
      for (const [key, value] of Object.entries(received.getMap())) headers[key] = String(value)
    })
  }).finally(() => client.close())
}
