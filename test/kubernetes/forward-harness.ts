import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { isDeepStrictEqual } from 'node:util'
import { serve } from '@hono/node-server'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { Forwarder, FunctionClient, type ForwarderOptions, type WriteResult } from '../../processes/forwarder/index.ts'
import { harness } from '../functions/app/app-harness.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { startKubeApiDouble, type KubeObject } from '../support/kube-api-double.ts'
import { tlsSecret } from '../support/objects.ts'

export const CLUSTER = 'fwd'

/** One write the function was asked for, with what it answered. */
export interface Received {
  method: string
  route: string
  body: { events?: { type: string; object: KubeObject }[]; items?: KubeObject[] }
  status: number
}

/** A Secret from the TLS fixtures (a real certificate and key) under another name. */
export const fixtureSecret = (name: string, namespace = 'default') =>
  tlsSecret(
    name,
    readFileSync(new URL('../fixtures/tls/shop.example.com.crt', import.meta.url), 'utf8'),
    readFileSync(new URL('../fixtures/tls/shop.example.com.key', import.meta.url), 'utf8'),
    namespace,
  )

const READ_KINDS = [
  ['networking.k8s.io/v1', 'Ingress'],
  ['networking.k8s.io/v1', 'IngressClass'],
  ['v1', 'Service'],
  ['discovery.k8s.io/v1', 'EndpointSlice'],
  ['v1', 'Secret'],
  ['v1', 'ConfigMap'],
  ['gateway.networking.k8s.io/v1', 'GatewayClass'],
  ['gateway.networking.k8s.io/v1', 'Gateway'],
  ['gateway.networking.k8s.io/v1', 'HTTPRoute'],
  ['gateway.networking.k8s.io/v1beta1', 'ReferenceGrant'],
] as const

/**
 * The forwarder's world: the Kubernetes API server double, and the real app (on a memory
 * store) over HTTP on loopback, behind a recorder that keeps every write it was sent and can
 * answer the next ones with a fault instead.
 */
export async function startForwardHarness() {
  const double = await startKubeApiDouble()
  const { app, store, register, call } = harness()
  const received: Received[] = []
  const faults: { status: number; headers?: Record<string, string>; body: unknown }[] = []
  const server = serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request: Request) => {
      const text = await request.text()
      const route = new URL(request.url).pathname
      const fault = route.startsWith(`/v1/clusters/${CLUSTER}/`) && request.method !== 'GET' ? faults.shift() : undefined
      // Recorded before the app commits it, so a test that sees the commit also sees the request.
      const record: Received = { method: request.method, route, body: text ? JSON.parse(text) : {}, status: 0 }
      if (request.method !== 'GET') received.push(record)
      const response = fault
        ? new Response(JSON.stringify(fault.body), { status: fault.status, headers: { 'content-type': 'application/json', ...fault.headers } })
        : await app.fetch(new Request(request.url, { method: request.method, headers: request.headers, ...(text ? { body: text } : {}) }))
      record.status = response.status
      return response
    },
  })
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const token = await register(CLUSTER)
  const forwarders: Forwarder[] = []
  const log: string[] = []
  const committed: WriteResult[] = []

  const startForwarder = async (options: Partial<ForwarderOptions> = {}) => {
    const forwarder = new Forwarder({
      kubeConfig: await double.kubeConfig(),
      client: new FunctionClient({ source: url, cluster: CLUSTER, token }),
      configMap: { namespace: 'hapedge', name: 'hapedge' },
      watchBackoff: { baseMs: 20, maxMs: 200 },
      log: (line) => log.push(line),
      onCommitted: (result) => void committed.push(result),
      ...options,
      delivery: { delayMs: 50, backoff: { baseMs: 20, maxMs: 200 }, ...options.delivery },
    })
    forwarders.push(forwarder)
    await forwarder.start()
    return forwarder
  }

  const head = async () => (await (await call('GET', `/v1/clusters/${CLUSTER}/head`, token)).json()) as { generation?: number; manifest?: string }
  /** The files of the function's newest generation (none before the first commit). */
  const files = async () => {
    const { manifest } = await head()
    return manifest ? readGeneration(store, CLUSTER, manifest, coldContext()) : new Map<string, string>()
  }
  /** The files a full rebuild of every object in the double gives: what the function must converge to. */
  const expectedFiles = () => fullRebuild(READ_KINDS.flatMap(([apiVersion, kind]) => double.list(apiVersion, kind))).files

  return {
    double,
    url,
    token,
    received,
    faults,
    log,
    committed,
    startForwarder,
    head,
    files,
    expectedFiles,
    /** Waits until the function's newest generation renders exactly what a full rebuild of the double's objects does. */
    converged: () => eventually('the function to hold what the cluster holds', async () => isDeepStrictEqual(await files(), expectedFiles()), 20_000),
    /** Every object the function was sent, by resync or event, in order. */
    sentObjects: () => received.flatMap((write) => [...(write.body.items ?? []), ...(write.body.events ?? []).map((event) => event.object)]),
    async stop() {
      for (const forwarder of forwarders) await forwarder.stop(1000)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await double.stop()
    },
  }
}

export type ForwardHarness = Awaited<ReturnType<typeof startForwardHarness>>
