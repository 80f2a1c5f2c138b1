import { spawn, type ChildProcess } from 'node:child_process'
import type { HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { answeredBy } from '../integration/serve-cluster.ts'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { eventually } from '../support/eventually.ts'
import { request } from '../support/http-client.ts'
import { startKubeApiDouble, type KubeApiDouble, type KubeObject, type ResourceType } from '../support/kube-api-double.ts'
import type { NamedBackend } from '../support/named-backends.ts'
import { projectRoot } from '../support/run-cli.ts'

const SECRET = 'deployment-secret-for-the-end-to-end-test-0123456789'

export interface ClusterPath {
  double: KubeApiDouble
  stack: EdgeStack
  kubeconfig: string
  /** Which backend answered a request for `host` and `path` through HAProxy, or `HTTP <status>`. */
  answer(host: string, path: string): Promise<string>
  /** The cluster's `HAProxyCfg` status, as the forwarder wrote it. */
  status(): HAProxyCfgStatus | undefined
  head(): Promise<{ generation: number; manifest: string }>
  stop(): Promise<void>
}

/**
 * The whole path, each part real but the API server (a double speaking its protocol): objects in
 * the cluster → `hapedge forward` → `hapedge serve` commits → it writes the `HAProxyCfg` status
 * back through the API server → `hapedge agent` (started by the test: `stack.agentProcess`),
 * which hears of generations only by watching that resource → HAProxy 2.6 serves the change.
 * `objects` are in the cluster before the forwarder starts; `resources` are kinds beyond the
 * built-in ones the API server serves (CRDs).
 */
export async function startClusterPath(
  pools: Record<string, string[]>,
  objects: (backends: ReadonlyMap<string, NamedBackend>) => KubeObject[],
  resources: ResourceType[] = [],
): Promise<ClusterPath> {
  const double = await startKubeApiDouble({ resources })
  const kubeconfig = await double.kubeconfig()
  let forwarder: ChildProcess | undefined
  const stack = await startEdgeStack(
    pools,
    async ({ backends, served, token }) => {
      for (const object of objects(backends)) double.put(object)
      forwarder = spawn(process.execPath, ['bin/hapedge.js', 'forward', '--source', served.url, '--cluster', 'edge', '--kubeconfig', kubeconfig], {
        cwd: projectRoot,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, HAPEDGE_TOKEN: token },
      })
      await eventually(
        'the forwarder’s first resync',
        () => fetch(`${served.url}/v1/clusters/edge/head`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.ok),
        30_000,
      )
    },
    {
      push: false,
      serveEnv: { HAPEDGE_SECRET: SECRET },
      registration: { kubernetes: { server: double.url, token: double.token, caData: Buffer.from(double.caPem).toString('base64') } },
    },
  )
  return {
    double,
    stack,
    kubeconfig,
    answer: async (host, path) => answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host } })),
    status: () =>
      double.find({ apiVersion: 'hapedge.io/v1alpha1', kind: 'HAProxyCfg', metadata: { namespace: 'hapedge', name: 'edge' } })?.status as
        | HAProxyCfgStatus
        | undefined,
    head: async () =>
      (await (await fetch(`${stack.served.url}/v1/clusters/edge/head`, { headers: { authorization: `Bearer ${stack.token}` } })).json()) as {
        generation: number
        manifest: string
      },
    stop: async () => {
      forwarder?.kill('SIGTERM')
      await stack.stop()
      await double.stop()
    },
  }
}
