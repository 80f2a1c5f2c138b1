import { spawn, type ChildProcess } from 'node:child_process'
import { startKubeApiDouble, type KubeApiDouble, type KubeApiDoubleOptions, type KubeObject } from '../support/kube-api-double.ts'
import { projectRoot } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/** A cluster (the API server double), the real `hapedge serve` with a cluster `prod`, and `hapedge forward --write-status` between them. */
export interface WriteStatusWorld {
  double: KubeApiDouble
  stop(): Promise<void>
}

/**
 * Starts the three on loopback, with `objects` in the cluster before the forwarder lists it;
 * the forwarder writes the `HAProxyCfg` status into `edge-system/prod`.
 */
export async function startWriteStatusWorld(objects: readonly object[], options?: KubeApiDoubleOptions): Promise<WriteStatusWorld> {
  const double = await startKubeApiDouble(options)
  const data = await makeTempDir('hapedge-write-status')
  const served: Served = await startServe(['--data', data])
  const registered = await fetch(`${served.url}/v1/clusters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'prod' }),
  })
  const { token } = (await registered.json()) as { token: string }
  for (const object of objects) double.put(object as KubeObject)
  const args = ['bin/hapedge.js', 'forward', '--source', served.url, '--cluster', 'prod', '--kubeconfig', await double.kubeconfig()]
  const forwarder: ChildProcess = spawn(process.execPath, [...args, '--write-status', '--status-resource', 'edge-system/prod'], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, HAPEDGE_TOKEN: token },
  })
  return {
    double,
    async stop() {
      forwarder.kill('SIGTERM')
      await served.stop()
      await double.stop()
      await removeTempDir(data)
    },
  }
}
