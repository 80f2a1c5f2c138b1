import { fullRebuild, type Rendered } from '../../core/render/full-rebuild.ts'
import type { ClusterOptions } from '../../core/model/settings.ts'
import { FILES, portCrtList } from '../../core/render/files.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyCheck, startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { request, type HttpResponse, type RequestOptions } from '../support/http-client.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/**
 * One cluster served end to end: objects → fullRebuild → files on disk (with manifest) →
 * `haproxy -c` (must pass) → the real HAProxy on free loopback ports.
 */
export interface ServedCluster extends Pick<Rendered, 'model' | 'files' | 'state'> {
  dir: string
  httpPort: number
  httpsPort: number
  /** Everything HAProxy wrote to stdout and stderr so far (its log's warnings among it). */
  output(): string
  /** The loopback port a Gateway listener port of its own (ServeOptions.ownPorts) is bound to. */
  ownPort(port: number): number
  /** Plain HTTP to the HTTP bind with this Host header (`path` may carry a query string); to a port of its own's bind when the Host names that port. */
  get(host: string, path: string, init?: RequestOptions): Promise<HttpResponse>
  /** HTTPS to the HTTPS bind (or a port of its own's, as `get`) with this Host header and SNI name (default: the host). */
  https(host: string, path: string, servername?: string, init?: RequestOptions): Promise<HttpResponse>
  /** Stops HAProxy and removes the rendered directory. Idempotent. */
  stop(): Promise<void>
}

export type ServeOptions = Partial<Pick<ClusterOptions, 'ingressClass' | 'configMap' | 'snippets'>> & {
  /** Gateway listener ports served on sockets of their own (the cluster's gatewayPorts), each bound to a free loopback port. */
  ownPorts?: { port: number; protocol: 'HTTP' | 'HTTPS' }[]
}

/** Renders `objects` exactly as the CLI would, without starting anything. */
export async function renderToDir(objects: unknown[], options: Partial<ClusterOptions> & { httpBind: string; httpsBind: string }) {
  const rendered = fullRebuild(objects, options)
  const dir = await makeTempDir('hapedge-integration')
  await writeRendered(dir, rendered.layout)
  return { ...rendered, dir }
}

export async function serveCluster(objects: unknown[], { ownPorts = [], ...options }: ServeOptions = {}): Promise<ServedCluster> {
  if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
  const httpPort = await freePort()
  const httpsPort = await freePort()
  // A listener port's bind: where a client reaching the Gateway's address on that port arrives.
  const bound = new Map<number, number>()
  for (const { port } of ownPorts) bound.set(port, await freePort())
  const gatewayPorts = ownPorts.map(({ port, protocol }) => ({ port, protocol, bind: `127.0.0.1:${bound.get(port)}` }))
  const { model, files, state, dir } = await renderToDir(objects, {
    ...options,
    httpBind: `127.0.0.1:${httpPort}`,
    httpsBind: `127.0.0.1:${httpsPort}`,
    ...(gatewayPorts.length > 0 ? { gatewayPorts } : {}),
  })

  let haproxy: RunningHaproxy | undefined
  try {
    const check = await haproxyCheck(dir)
    if (!check.ok) throw new Error(`haproxy -c rejected the rendered configuration:\n${check.output}`)
    // A bind is there when it has something to listen with: in clear, or a crt-list of its own with lines.
    const own = ownPorts.filter(({ port, protocol }) => protocol === 'HTTP' || files.has(portCrtList(port))).map(({ port }) => bound.get(port)!)
    haproxy = await startHaproxy({ dir, readyPorts: [httpPort, ...(files.has(FILES.crtList) ? [httpsPort] : []), ...own] })
  } catch (error) {
    await removeTempDir(dir)
    throw error
  }

  const withHost = (host: string, init: RequestOptions = {}): RequestOptions => ({ ...init, headers: { ...init.headers, host } })
  return {
    model,
    files,
    state,
    dir,
    httpPort,
    httpsPort,
    output: () => haproxy?.output() ?? '',
    ownPort: (port) => bound.get(port)!,
    get: (host, path, init) => request(`http://127.0.0.1:${bound.get(Number(host.split(':')[1])) ?? httpPort}${path}`, withHost(host, init)),
    https: (host, path, servername = host, init) =>
      request(`https://127.0.0.1:${bound.get(Number(host.split(':')[1])) ?? httpsPort}${path}`, { servername, ...withHost(host, init) }),
    stop: async () => {
      await haproxy?.stop()
      await removeTempDir(dir)
    },
  }
}

/** Which named backend answered, or `HTTP <status>` when none did (404 from HAProxy, 503, a redirect…). */
export function answeredBy(response: HttpResponse): string {
  const backend = response.headers['x-backend']
  return response.status === 200 && typeof backend === 'string' ? backend : `HTTP ${response.status}`
}
