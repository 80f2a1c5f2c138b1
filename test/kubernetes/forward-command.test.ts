import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { httpSource } from '../../processes/agent/http-source.ts'
import { app, coldContext } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { startKubeApiDouble, type KubeApiDouble } from '../support/kube-api-double.ts'
import { hapedge, projectRoot } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

describe('hapedge forward (the command)', () => {
  it('refuses missing or malformed flags with exit code 2 and says which', async () => {
    const base = ['forward', '--source', 'http://127.0.0.1:1', '--cluster', 'prod', '--token', 't', '--kubeconfig', '/nonexistent']
    expect(await hapedge(['forward', '--cluster', 'prod', '--token', 't'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/hapedge forward: --source is required/),
    })
    expect(await hapedge(['forward', '--source', 'http://x', '--cluster', 'prod'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--token is required \(or HAPEDGE_TOKEN\)/),
    })
    expect(await hapedge([...base, '--cluster', '../etc'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--cluster "\.\.\/etc": a DNS label/) })
    expect(await hapedge([...base, '--config-map', 'just-a-name'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--config-map just-a-name: NAMESPACE\/NAME/),
    })
    expect(await hapedge([...base, '--resync', 'often'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--resync often: a duration/) })
    expect(await hapedge(base)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--kubeconfig \/nonexistent: /) })
    expect(await hapedge(['forward', '--sauce', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/hapedge forward: Unknown option '--sauce'/) })
    // Seven process starts, each importing @kubernetes/client-node: seconds each on a loaded 2-core machine.
  }, 180_000)

  describe('between the API server double and the real hapedge serve', () => {
    let tmp: string
    let served: Served
    let double: KubeApiDouble
    beforeAll(async () => {
      tmp = await makeTempDir('hapedge-forward')
      ;[served, double] = await Promise.all([startServe(['--data', join(tmp, 'data')]), startKubeApiDouble()])
    })
    afterAll(async () => {
      await served?.stop()
      await double?.stop()
      await removeTempDir(tmp)
    })

    it('sends the cluster to the function, follows its changes, and stops on SIGTERM with exit code 0', async () => {
      const registered = await fetch(`${served.url}/v1/clusters`, {
        method: 'POST',
        headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'forwarded' }),
      })
      const { token } = (await registered.json()) as { token: string }
      for (const object of [...app(1), ...app(2)]) double.put(object)

      const child = spawn(
        process.execPath,
        ['bin/hapedge.js', 'forward', '--source', served.url, '--cluster', 'forwarded', '--kubeconfig', await double.kubeconfig(), '--batch-delay', '20ms'],
        {
          cwd: projectRoot,
          env: { ...process.env, HAPEDGE_TOKEN: token },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk))
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

      const held = async () => {
        const response = await fetch(`${served.url}/v1/clusters/forwarded/head`, { headers: { authorization: `Bearer ${token}` } })
        if (!response.ok) return new Map<string, string>()
        const { manifest } = (await response.json()) as { manifest: string }
        return readGeneration(httpSource(served.url, 'forwarded', token), 'forwarded', manifest, coldContext())
      }
      const matches = async () =>
        isDeepStrictEqual(
          await held(),
          fullRebuild([
            ...double.list('networking.k8s.io/v1', 'Ingress'),
            ...double.list('v1', 'Service'),
            ...double.list('discovery.k8s.io/v1', 'EndpointSlice'),
          ]).files,
        )
      try {
        await eventually('the first resync to be served', matches, 30_000)
        for (const object of app(3)) double.put(object)
        double.remove(app(1)[0]!)
        await eventually('the changes to be served', matches, 30_000)
      } finally {
        child.kill('SIGTERM')
      }
      expect(await exited).toBe(0)
      expect(output).toMatch(/hapedge forward: resync → generation 1 \(committed\)/)
      expect(output).toMatch(/hapedge forward: \d+ events? → generation \d+ \(committed\)/)
      expect(output).toMatch(/hapedge forward: SIGTERM, sending what is pending and stopping/)
    })
  })
})
