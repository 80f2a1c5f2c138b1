import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  EventsV1Api,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type V1Service,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually.ts'
import { startKubeApiDouble, type KubeApiDouble, type KubeObject } from '../support/kube-api-double.ts'

const service = (name: string, namespace = 'default'): V1Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { ports: [{ port: 80 }] },
})
const haproxyCfg = (name: string) => ({
  apiVersion: 'hapedge.io/v1alpha1',
  kind: 'HAProxyCfg',
  metadata: { name, namespace: 'hapedge' },
  spec: { cluster: 'prod' },
})
const cfgPath = ['hapedge.io', 'v1alpha1', 'hapedge', 'haproxycfgs'] as const

async function failure(promise: Promise<unknown>): Promise<ApiException<unknown>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!(error instanceof ApiException)) throw new Error(`expected an ApiException, got ${String(error)}`)
  return error
}

interface Seen {
  type: string
  object: KubeObject
}

/** Watches with the client's Watch and collects every event until the stream ends. */
async function watchEvents(double: KubeApiDouble, path: string, query: Record<string, string | number | boolean>) {
  const events: Seen[] = []
  let ended: unknown = 'open'
  const controller = await new Watch(await double.kubeConfig()).watch(
    path,
    query,
    (type, object: KubeObject) => events.push({ type, object }),
    (error) => (ended = error),
  )
  return { events, ended: () => ended, abort: () => controller.abort() }
}

describe('the Kubernetes API server double, driven by @kubernetes/client-node 1.4.0', () => {
  let double: KubeApiDouble
  beforeAll(async () => {
    double = await startKubeApiDouble()
  })
  afterAll(async () => {
    await double?.stop()
  })

  it('refuses a request without its bearer token with 401, and the client sends the token from the kubeconfig', async () => {
    const wrong = (await double.kubeConfig({ token: 'not-the-token' })).makeApiClient(CoreV1Api)
    expect((await failure(wrong.listNamespacedService({ namespace: 'default' }))).code).toBe(401)
    const right = (await double.kubeConfig()).makeApiClient(CoreV1Api)
    expect((await right.listNamespacedService({ namespace: 'default' })).kind).toBe('ServiceList')
    expect(double.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/namespaces/default/services', status: 200 })
  })

  it('creates, lists, reads, replaces and deletes core objects with one global resourceVersion, 409 on a duplicate or a stale write', async () => {
    const core = (await double.kubeConfig()).makeApiClient(CoreV1Api)
    const created = await core.createNamespacedService({ namespace: 'crud', body: service('web', 'crud') })
    expect(created.metadata).toMatchObject({ name: 'web', namespace: 'crud', generation: 1 })
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date)
    expect((await failure(core.createNamespacedService({ namespace: 'crud', body: service('web', 'crud') }))).body).toMatch(/AlreadyExists/)

    const other = await core.createNamespacedService({ namespace: 'crud-2', body: service('api', 'crud-2') })
    expect(Number(other.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion))
    const everywhere = await core.listServiceForAllNamespaces()
    expect(everywhere.items.map((item) => item.metadata?.name)).toEqual(['api', 'web'])
    expect(everywhere.metadata?.resourceVersion).toBe(double.resourceVersion)
    expect((await core.listNamespacedService({ namespace: 'crud' })).items.map((item) => item.metadata?.name)).toEqual(['web'])

    const changed = await core.replaceNamespacedService({ name: 'web', namespace: 'crud', body: { ...created, spec: { ports: [{ port: 8080 }] } } })
    expect(changed.metadata?.generation).toBe(2)
    const stale = await failure(core.replaceNamespacedService({ name: 'web', namespace: 'crud', body: { ...created, spec: { ports: [{ port: 9090 }] } } }))
    expect(stale.code).toBe(409)
    expect(stale.body).toMatch(/Conflict/)
    expect((await core.readNamespacedService({ name: 'web', namespace: 'crud' })).spec?.ports?.[0]?.port).toBe(8080)

    await core.deleteNamespacedService({ name: 'web', namespace: 'crud' })
    expect((await failure(core.readNamespacedService({ name: 'web', namespace: 'crud' }))).code).toBe(404)
  })

  it('serves custom resources and their /status subresource: status writes change only .status, main writes keep it, a stale patch is 409', async () => {
    const custom = (await double.kubeConfig()).makeApiClient(CustomObjectsApi)
    const [group, version, namespace, plural] = cfgPath
    const created = (await custom.createNamespacedCustomObject({
      group,
      version,
      namespace,
      plural,
      body: { ...haproxyCfg('prod'), status: { generation: 9 } },
    })) as KubeObject
    expect(created.status).toBeUndefined()

    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    const patched = (await custom.patchNamespacedCustomObjectStatus(
      { group, version, namespace, plural, name: 'prod', body: { status: { generation: 3 }, spec: { cluster: 'ignored' } } },
      merge,
    )) as KubeObject
    expect(patched).toMatchObject({ spec: { cluster: 'prod' }, status: { generation: 3 }, metadata: { generation: 1 } })
    expect(Number(patched.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion))

    const staleBody = { metadata: { resourceVersion: created.metadata?.resourceVersion }, status: { generation: 4 } }
    expect((await failure(custom.patchNamespacedCustomObjectStatus({ group, version, namespace, plural, name: 'prod', body: staleBody }, merge))).code).toBe(
      409,
    )

    // The client's default patch type is an RFC 6902 JSON patch.
    const jsonPatched = (await custom.patchNamespacedCustomObjectStatus({
      group,
      version,
      namespace,
      plural,
      name: 'prod',
      body: [{ op: 'replace', path: '/status/generation', value: 5 }],
    })) as KubeObject
    expect(jsonPatched.status).toEqual({ generation: 5 })

    const replaced = (await custom.replaceNamespacedCustomObject({
      group,
      version,
      namespace,
      plural,
      name: 'prod',
      body: { ...jsonPatched, spec: { cluster: 'staging' }, status: { generation: 0 } },
    })) as KubeObject
    expect(replaced).toMatchObject({ spec: { cluster: 'staging' }, status: { generation: 5 }, metadata: { generation: 2 } })
    const status = (await custom.replaceNamespacedCustomObjectStatus({
      group,
      version,
      namespace,
      plural,
      name: 'prod',
      body: { ...replaced, status: { generation: 6 } },
    })) as KubeObject
    expect(status).toMatchObject({ spec: { cluster: 'staging' }, status: { generation: 6 } })
    const listed = (await custom.listNamespacedCustomObject({ group, version, namespace, plural })) as { kind: string; items: KubeObject[] }
    expect(listed.kind).toBe('HAProxyCfgList')
    expect(listed.items[0]).toMatchObject({ apiVersion: 'hapedge.io/v1alpha1', kind: 'HAProxyCfg' })
  })

  it('lists built-in kinds without apiVersion and kind on each item, filters by label and field selectors, and pages with limit and continue', async () => {
    const secret = (name: string, type: string, labels: Record<string, string> = {}) =>
      double.put({ apiVersion: 'v1', kind: 'Secret', type, metadata: { name, namespace: 'tls', labels }, data: {} })
    secret('cert-a', 'kubernetes.io/tls', { team: 'a' })
    secret('cert-b', 'kubernetes.io/tls', { team: 'b' })
    secret('token', 'Opaque', { team: 'a' })
    const core = (await double.kubeConfig()).makeApiClient(CoreV1Api)
    const tls = await core.listNamespacedSecret({ namespace: 'tls', fieldSelector: 'type=kubernetes.io/tls' })
    expect(tls.items.map((item) => item.metadata?.name)).toEqual(['cert-a', 'cert-b'])
    expect(double.requests.at(-1)?.query.fieldSelector).toBe('type=kubernetes.io/tls')
    expect((await core.listNamespacedSecret({ namespace: 'tls', labelSelector: 'team in (a),team!=b' })).items.map((item) => item.metadata?.name)).toEqual([
      'cert-a',
      'token',
    ])

    const first = await core.listNamespacedSecret({ namespace: 'tls', limit: 2 })
    expect(first.items.map((item) => item.metadata?.name)).toEqual(['cert-a', 'cert-b'])
    const second = await core.listNamespacedSecret({ namespace: 'tls', limit: 2, _continue: first.metadata?._continue })
    expect(second.items.map((item) => item.metadata?.name)).toEqual(['token'])
    expect(second.metadata?._continue).toBeUndefined()
  })

  it('stores core and events.k8s.io Events and lists them', async () => {
    const config = await double.kubeConfig()
    await config.makeApiClient(CoreV1Api).createNamespacedEvent({
      namespace: 'hapedge',
      body: {
        metadata: { name: 'cfg.1', namespace: 'hapedge' },
        involvedObject: { kind: 'HAProxyCfg', name: 'prod' },
        reason: 'Committed',
        message: 'generation 4',
      },
    })
    await config.makeApiClient(EventsV1Api).createNamespacedEvent({
      namespace: 'hapedge',
      body: {
        metadata: { generateName: 'cfg.' },
        eventTime: new Date(),
        reason: 'Committed',
        action: 'Commit',
        reportingController: 'hapedge.io/forwarder',
        reportingInstance: 'x',
      },
    })
    expect((await config.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: 'hapedge' })).items.map((event) => event.reason)).toEqual(['Committed'])
    const modern = await config.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: 'hapedge' })
    expect(modern.items).toHaveLength(1)
    expect(modern.items[0]?.metadata?.name).toMatch(/^cfg\./)
  })

  it('streams watch events from a resourceVersion, bookmarks on request, and ends a stream at timeoutSeconds or when watches are dropped', async () => {
    const from = double.resourceVersion
    double.put(service('first', 'watch'))
    const watch = await watchEvents(double, '/api/v1/namespaces/watch/services', { resourceVersion: from, allowWatchBookmarks: true })
    double.put({ ...service('first', 'watch'), spec: { ports: [{ port: 81 }] } })
    double.remove(service('first', 'watch'))
    double.put(service('elsewhere', 'other'))
    double.bookmark()
    await eventually('the bookmark', () => watch.events.some((event) => event.type === 'BOOKMARK'))
    expect(watch.events.map((event) => `${event.type} ${event.object.metadata?.name ?? ''}`)).toEqual([
      'ADDED first',
      'MODIFIED first',
      'DELETED first',
      'BOOKMARK ',
    ])
    expect(watch.events.at(-1)?.object.metadata?.resourceVersion).toBe(double.resourceVersion)
    expect(double.dropWatches()).toBe(1)
    await eventually('the dropped stream to end', () => watch.ended() === null)

    const timed = await watchEvents(double, '/api/v1/namespaces/watch/services', { resourceVersion: double.resourceVersion, timeoutSeconds: 1 })
    await eventually('the stream to time out', () => timed.ended() === null)
    expect(double.openWatches()).toEqual([])
  })

  it('answers a watch from before compaction with an ERROR event carrying a 410 Expired Status', async () => {
    const old = double.resourceVersion
    double.compact()
    const watch = await watchEvents(double, '/api/v1/services', { resourceVersion: old })
    await eventually('the stream to end', () => watch.ended() === null)
    expect(watch.events).toHaveLength(1)
    expect(watch.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } })
  })

  it('keeps the client informer in step through dropped watches and a compaction', async () => {
    const config = await double.kubeConfig()
    const core = config.makeApiClient(CoreV1Api)
    double.put(service('a', 'informed'))
    const informer = makeInformer(config, '/api/v1/namespaces/informed/services', () => core.listNamespacedService({ namespace: 'informed' }))
    const names = () =>
      informer
        .list('informed')
        .map((item) => item.metadata?.name)
        .sort()
        .join(',')
    await informer.start()
    try {
      double.put(service('b', 'informed'))
      await eventually('the informer to see b', () => names() === 'a,b')
      const lists = () => double.requests.filter((request) => request.path === '/api/v1/namespaces/informed/services' && !request.query.watch).length
      const listsBefore = lists()

      double.dropWatches()
      await eventually('the informer to watch again', () => double.openWatches().some((watch) => watch.namespace === 'informed'))
      double.put(service('c', 'informed'))
      await eventually('the informer to see c', () => names() === 'a,b,c')
      expect(lists()).toBe(listsBefore)

      double.compact()
      double.dropWatches()
      await eventually('the informer to list again after 410', () => lists() > listsBefore)
      double.remove(service('a', 'informed'))
      await eventually('the informer to see a go', () => names() === 'b,c')
    } finally {
      await informer.stop()
    }
  })
})
