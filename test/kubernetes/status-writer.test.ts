import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { haproxyCfgClient, type HAProxyCfgClient } from '../../functions/adapters/kubernetes/haproxycfg-client.ts'
import { kubeConfigFrom } from '../../functions/adapters/kubernetes/kube-config.ts'
import { kubernetesClusterWriter } from '../../functions/adapters/kubernetes/status-writer.ts'
import { crdValidator } from '../support/crd-schema.ts'
import { startKubeApiDouble, type KubeApiDouble } from '../support/kube-api-double.ts'
import { kubeConfigOf, resourceWith, statusOf, storedGeneration, target } from './haproxycfg-fixtures.ts'

const crd = parse(readFileSync(fileURLToPath(new URL('../../infra/crd/haproxycfg.yaml', import.meta.url)), 'utf8'))
const validate = crdValidator(crd.spec.versions[0].schema.openAPIV3Schema, { closed: true })

/** The real client, with `between` run once after its first read: another writer acting between our read and our patch. */
function interrupted(double: KubeApiDouble, between: () => void): HAProxyCfgClient {
  const real = haproxyCfgClient(kubeConfigOf(double))
  let pending = true
  return {
    ...real,
    async get(place) {
      const read = await real.get(place)
      if (pending) between()
      pending = false
      return read
    },
  }
}

const statusPatches = (double: KubeApiDouble) =>
  double.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith(`/haproxycfgs/${target.name}/status`))

describe('the Kubernetes status writer against an API server double', () => {
  let double: KubeApiDouble
  beforeAll(async () => {
    double = await startKubeApiDouble()
  })
  afterAll(async () => {
    await double?.stop()
  })
  beforeEach(() => {
    double.remove(resourceWith(undefined))
    double.requests.length = 0
  })

  it('creates the HAProxyCfg when missing and writes its status by merge patch, in the shape the CRD admits', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod', source: 'https://hapedge.example.com' })
    expect(await writer.writeStatus(target, statusOf(7))).toEqual({ outcome: 'written', generation: 7, attempts: 1, created: true })
    const stored = double.find(resourceWith(undefined))!
    expect(stored.spec).toEqual({ cluster: 'prod', source: 'https://hapedge.example.com' })
    const status = stored.status as HAProxyCfgStatus
    expect(status).toMatchObject({ generation: 7, manifest: statusOf(7).manifest })
    expect(status.conditions.every((condition) => condition.observedGeneration === stored.metadata?.generation)).toBe(true)
    expect(validate(stored)).toEqual([])
    expect(statusPatches(double).map((request) => request.contentType)).toEqual(['application/merge-patch+json'])
  })

  it('reads and leaves alone a resource that already shows the same status', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    await writer.writeStatus(target, statusOf(7))
    expect(await writer.writeStatus(target, statusOf(7))).toMatchObject({ outcome: 'unchanged', generation: 7 })
    expect(statusPatches(double)).toHaveLength(1)
  })

  it("keeps a condition's transition time while it holds", async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    await writer.writeStatus(target, statusOf(7))
    await writer.writeStatus(target, statusOf(8))
    const committed = (double.find(resourceWith(undefined))!.status as HAProxyCfgStatus).conditions.find((condition) => condition.type === 'Committed')!
    expect(committed.lastTransitionTime).toBe(statusOf(7).committedAt)
  })

  it('retries on a fresh read when the resource changed between its read and its patch (409), and succeeds', async () => {
    double.put(resourceWith(statusOf(6)))
    const client = interrupted(double, () => double.put(resourceWith({ ...statusOf(6), pods: [] })))
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod', client })
    expect(await writer.writeStatus(target, statusOf(7))).toMatchObject({ outcome: 'written', generation: 7, attempts: 2, created: false })
    expect(statusPatches(double).map((request) => request.status)).toEqual([409, 200])
    expect(storedGeneration(double)).toBe(7)
  })

  it('never moves the generation backwards: a stale writer (5) leaves 7, even when 7 lands between its read and its patch', async () => {
    double.put(resourceWith(statusOf(7)))
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    expect(await writer.writeStatus(target, statusOf(5))).toEqual({ outcome: 'stale', generation: 5, current: 7, attempts: 1 })
    expect(statusPatches(double)).toHaveLength(0)

    double.put(resourceWith(statusOf(4)))
    const raced = kubernetesClusterWriter({
      kubeConfig: kubeConfigOf(double),
      cluster: 'prod',
      client: interrupted(double, () => double.put(resourceWith(statusOf(7)))),
    })
    expect(await raced.writeStatus(target, statusOf(5))).toEqual({ outcome: 'stale', generation: 5, current: 7, attempts: 2 })
    expect(storedGeneration(double)).toBe(7)
  })

  it('answers a failure instead of throwing: refused credentials, and a resource that keeps changing', async () => {
    const refused = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double, 'wrong-token'), cluster: 'prod' })
    expect(await refused.writeStatus(target, statusOf(7))).toMatchObject({ outcome: 'failed', generation: 7, code: 401 })

    double.put(resourceWith(statusOf(6)))
    const real = haproxyCfgClient(kubeConfigOf(double))
    let changes = 0
    const busy: HAProxyCfgClient = {
      ...real,
      async get(place) {
        const read = await real.get(place)
        double.put(resourceWith({ ...statusOf(6), reloadReasons: [`change ${++changes}`] }))
        return read
      },
    }
    const contended = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod', attempts: 3, client: busy })
    const result = await contended.writeStatus(target, statusOf(7))
    expect(result).toMatchObject({ outcome: 'failed', generation: 7, attempts: 3, code: 409 })
    expect(storedGeneration(double)).toBe(6)
  })

  it('builds its KubeConfig from a server, a token and a CA alone, and refuses a server it would send the token to in the clear', () => {
    expect(kubeConfigOf(double).getCurrentCluster()).toMatchObject({ server: double.url })
    expect(() => kubeConfigFrom({ server: 'http://127.0.0.1:6443', token: 't' })).toThrow(/must be https/)
    expect(() => kubeConfigFrom({ server: 'https://api.example.com', token: '' })).toThrow(/token is required/)
  })
})
