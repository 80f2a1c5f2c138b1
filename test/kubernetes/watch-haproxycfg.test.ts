import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { StatusPointer } from '../../core/status/status-pointer.ts'
import { followHaproxyCfg, type Following } from '../../functions/adapters/kubernetes/watch-haproxycfg.ts'
import { eventually } from '../support/eventually.ts'
import { startKubeApiDouble, type KubeApiDouble } from '../support/kube-api-double.ts'
import { kubeConfigOf, resourceWith, statusOf, target } from './haproxycfg-fixtures.ts'

const lists = (double: KubeApiDouble) =>
  double.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/haproxycfgs') && request.query.watch === undefined).length
const watching = (double: KubeApiDouble) => double.openWatches().filter((watch) => watch.plural === 'haproxycfgs')

describe("the agent's watch of its HAProxyCfg, against an API server double", () => {
  let double: KubeApiDouble
  let following: Following | undefined
  const seen: number[] = []
  const errors: unknown[] = []
  const follow = () => {
    following = followHaproxyCfg(kubeConfigOf(double), target, (pointer: StatusPointer) => seen.push(pointer.generation), {
      log: (line) => errors.push(line),
      backoff: { baseMs: 20, maxMs: 1_000 },
    })
  }
  const until = (generation: number) => eventually(`generation ${generation} to be seen`, () => seen.includes(generation))

  beforeAll(async () => {
    double = await startKubeApiDouble()
  })
  afterEach(() => {
    following?.stop()
    seen.length = 0
    errors.length = 0
  })
  afterAll(async () => {
    await double?.stop()
  })

  it('calls back with the generation it lists, then with each new one, and not for a change that names the same generation', async () => {
    double.put(resourceWith(statusOf(1)))
    follow()
    await until(1)
    await eventually('the watch to open', () => watching(double).length === 1)
    double.put(resourceWith({ ...statusOf(1), pods: [] }))
    double.put(resourceWith(statusOf(2)))
    double.put(resourceWith(statusOf(3)))
    await until(3)
    expect(seen).toEqual([1, 2, 3])
    expect(errors).toEqual([])
  })

  it('watches only its own resource', async () => {
    double.put(resourceWith(statusOf(4)))
    follow()
    await until(4)
    await eventually('the watch to open', () => watching(double).length === 1)
    double.put({ ...resourceWith(statusOf(9)), metadata: { namespace: target.namespace, name: 'another-cluster' } })
    double.put(resourceWith(statusOf(5)))
    await until(5)
    expect(seen).toEqual([4, 5])
  })

  it('resumes a dropped watch from where it was, without listing again', async () => {
    double.put(resourceWith(statusOf(6)))
    follow()
    await until(6)
    await eventually('the watch to open', () => watching(double).length === 1)
    const listed = lists(double)
    const resumedFrom = double.resourceVersion
    expect(double.dropWatches()).toBe(1)
    await eventually('the watch to resume', () => watching(double).some((watch) => watch.resourceVersion === resumedFrom))
    double.put(resourceWith(statusOf(7)))
    await until(7)
    expect(lists(double)).toBe(listed)
    expect(seen).toEqual([6, 7])
  })

  it('lists again when the history it would resume from is compacted away (410 Expired), and keeps following', async () => {
    double.put(resourceWith(statusOf(8)))
    follow()
    await until(8)
    await eventually('the watch to open', () => watching(double).length === 1)
    const listed = lists(double)
    double.compact()
    double.dropWatches()
    await eventually('a new list after the 410', () => lists(double) > listed)
    await eventually('the watch to open again', () => watching(double).length === 1)
    double.put(resourceWith(statusOf(9)))
    await until(9)
    expect(seen).toEqual([8, 9])
  })

  it('closes its watch when stopped', async () => {
    double.put(resourceWith(statusOf(10)))
    follow()
    await until(10)
    await eventually('the watch to open', () => watching(double).length === 1)
    following!.stop()
    await eventually('the watch to close', () => watching(double).length === 0)
  })
})
