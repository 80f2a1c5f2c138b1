import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually.ts'
import { app } from '../support/contracts/cluster-apps.ts'
import { authSecret, configMap, ingress, ingressClass, service } from '../support/objects.ts'
import { fixtureSecret, startForwardHarness, type ForwardHarness } from './forward-harness.ts'
import { watchedResources } from '../../processes/forwarder/watched-resources.ts'

const names = (objects: { kind?: string; metadata?: { name?: string } }[], kind: string) =>
  objects.filter((object) => object.kind === kind).map((object) => object.metadata?.name)
const tlsIngress = (name: string, secretName: string) =>
  ingress({ name, rules: [{ host: `${name}.example.com`, paths: [{ service: 'app-1' }] }], tls: [{ hosts: [`${name}.example.com`], secretName }] })

describe('hapedge forward: the real forwarder between the API server double and the function over HTTP', () => {
  let world: ForwardHarness
  beforeEach(async () => {
    world = await startForwardHarness()
  })
  afterEach(async () => {
    await world?.stop()
  })

  it('lists every kind it reads and commits them as one full resync, and sends no Secret that no Ingress names', async () => {
    for (const object of [
      ...app(1),
      ...app(2),
      ingressClass('hapedge', true),
      configMap({ 'timeout-client': '30s' }),
      configMap({ ignored: 'x' }, 'other', 'hapedge'),
    ])
      world.double.put(object)
    world.double.put(tlsIngress('shop', 'shop-tls'))
    world.double.put(fixtureSecret('shop-tls'))
    world.double.put(fixtureSecret('unused-tls'))
    world.double.put(fixtureSecret('shop-tls', 'elsewhere'))
    world.double.put({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { name: 'password', namespace: 'default' },
      data: { password: 'aHVudGVyMg==' },
    })

    await world.startForwarder()
    await world.converged()
    // The head can move before the forwarder has read the answer: wait for the answer, then compare.
    const answered = await eventually('the answer to the resync', () => world.committed.at(-1))
    expect((await world.head()).generation).toBe(answered.generation)
    const [first] = world.received
    expect(first).toMatchObject({ method: 'PUT', route: '/v1/clusters/fwd/objects', status: 200, body: { apiVersion: 'v1', kind: 'List' } })
    const items = first!.body.items!
    expect(names(items, 'Ingress').sort()).toEqual(['app-1', 'app-2', 'shop'])
    expect(names(items, 'ConfigMap')).toEqual(['hapedge'])
    expect(items.filter((item) => item.kind === 'Secret').map((item) => `${item.metadata?.namespace}/${item.metadata?.name}`)).toEqual(['default/shop-tls'])
    // A LIST leaves apiVersion and kind off each item; the function needs them back.
    expect(items.every((item) => typeof item.apiVersion === 'string' && typeof item.kind === 'string')).toBe(true)
    expect(world.log.some((line) => /^resync → generation \d+ \(committed/.test(line))).toBe(true)
  })

  it('posts watch events in batches bounded in count, in order per object, and the function converges on the cluster', async () => {
    await world.startForwarder({ delivery: { maxEvents: 4, delayMs: 50, backoff: { baseMs: 20, maxMs: 200 } } })
    for (let n = 1; n <= 6; n++) for (const object of app(n)) world.double.put(object)
    world.double.put(app(3, ['/', '/v2'])[0]!)
    world.double.put(app(3, ['/', '/v2', '/v3'])[0]!)
    world.double.remove(app(5)[0]!)
    await world.converged()

    const posts = world.received.filter((write) => write.method === 'POST')
    expect(posts.every((post) => post.route === '/v1/clusters/fwd/events' && post.body.events!.length <= 4)).toBe(true)
    const app3 = posts.flatMap((post) => post.body.events!).filter((event) => event.object.kind === 'Ingress' && event.object.metadata?.name === 'app-3')
    expect(app3.map((event) => event.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED'])
    expect(app3.map((event) => Number(event.object.metadata?.resourceVersion))).toEqual(
      [...app3.map((event) => Number(event.object.metadata?.resourceVersion))].sort((a, b) => a - b),
    )
    expect(world.received.filter((write) => write.method === 'PUT')).toHaveLength(1)
  })

  it('sends a TLS Secret when an Ingress starts naming it, its changes while named, and a DELETED without its key when no Ingress names it any more', async () => {
    for (const object of app(1)) world.double.put(object)
    world.double.put(fixtureSecret('later-tls'))
    await world.startForwarder()
    await world.converged()
    world.double.put({ ...fixtureSecret('later-tls'), metadata: { name: 'later-tls', namespace: 'default', labels: { rotated: '1' } } })
    world.double.put(service('unrelated'))
    await eventually('the unrelated Service to be sent', () => names(world.sentObjects(), 'Service').includes('unrelated'))
    expect(names(world.sentObjects(), 'Secret')).toEqual([])

    world.double.put(tlsIngress('later', 'later-tls'))
    await world.converged()
    const events = () => world.received.flatMap((write) => write.body.events ?? [])
    const secretEvents = () => events().filter((event) => event.object.kind === 'Secret')
    expect(secretEvents().map((event) => event.type)).toEqual(['ADDED'])
    const order = events().map((event) => `${event.type} ${event.object.kind}`)
    expect(order.indexOf('ADDED Secret')).toBeLessThan(order.indexOf('ADDED Ingress'))

    world.double.put({ ...fixtureSecret('later-tls'), metadata: { name: 'later-tls', namespace: 'default', labels: { rotated: '2' } } })
    await eventually('the change to the named Secret', () => secretEvents().length === 2)
    world.double.remove(tlsIngress('later', 'later-tls'))
    await eventually('the Secret to be withdrawn', () => secretEvents().length === 3)
    await world.converged()
    expect(secretEvents().map((event) => event.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
    expect(secretEvents()[2]!.object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { namespace: 'default', name: 'later-tls' },
    })

    // Named again at the very resourceVersion it was withdrawn at: the function must take it back.
    world.double.put(tlsIngress('again', 'later-tls'))
    await eventually('the Secret to be sent again', () => secretEvents().length === 4)
    await world.converged()
    expect([...(await world.files()).keys()].some((path) => /later-tls/.test(path) || /again\.example\.com/.test(path))).toBe(true)
  })

  it('sends a Secret of users while an Ingress names it for basic authentication, with its keys of users only, and withdraws it when none does', async () => {
    const bcrypt = '$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a'
    const users = authSecret('users', { auth: `alice:${bcrypt}\n`, 'db-password': 'hunter2' })
    const admin = (annotations: Record<string, string>) =>
      ingress({ name: 'admin', annotations, rules: [{ host: 'admin.example.com', paths: [{ service: 'app-1' }] }] })
    for (const object of [...app(1), users, authSecret('unnamed', { auth: `bob:${bcrypt}\n` })]) world.double.put(object)
    await world.startForwarder()
    await world.converged()
    expect(names(world.sentObjects(), 'Secret')).toEqual([])

    world.double.put(admin({ 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users' }))
    await world.converged()
    const secretEvents = () => world.received.flatMap((write) => write.body.events ?? []).filter((event) => event.object.kind === 'Secret')
    expect(secretEvents().map((event) => [event.type, event.object.metadata?.name, Object.keys(event.object.data as object)])).toEqual([
      ['ADDED', 'users', ['auth']],
    ])
    expect(JSON.stringify(world.received)).not.toContain(Buffer.from('hunter2').toString('base64'))
    expect((await world.files()).get('05-userlists.cfg')).toContain(`user alice password ${bcrypt}`)

    world.double.put(admin({}))
    await eventually('the Secret of users to be withdrawn', () => secretEvents().length === 2)
    await world.converged()
    expect(secretEvents()[1]).toMatchObject({ type: 'DELETED', object: { type: 'Opaque', metadata: { namespace: 'default', name: 'users' } } })
    expect(secretEvents()[1]!.object.data).toBeUndefined()
  })

  it('sends a ConfigMap while an Ingress’s custom-headers names it in its own namespace, its changes while named, and withdraws it when none does; never another namespace’s', async () => {
    const headers = (value: string, namespace = 'default') => ({
      ...configMap({ 'X-Frame-Options': value }, 'security-headers', namespace),
      binaryData: { blob: 'AAAA' },
    })
    const site = (annotations: Record<string, string>) =>
      ingress({ name: 'site', annotations, rules: [{ host: 'site.example.com', paths: [{ service: 'app-1' }] }] })
    for (const object of [...app(1), configMap({ 'timeout-client': '30s' }), headers('DENY'), headers('DENY', 'tenant-b')]) world.double.put(object)
    await world.startForwarder()
    await world.converged()
    expect(names(world.sentObjects(), 'ConfigMap')).toEqual(['hapedge'])

    world.double.put(site({ 'nginx.ingress.kubernetes.io/custom-headers': 'security-headers' }))
    world.double.put(headers('SAMEORIGIN'))
    await world.converged()
    const configMapEvents = () => world.received.flatMap((write) => write.body.events ?? []).filter((event) => event.object.kind === 'ConfigMap')
    expect(configMapEvents().map((event) => [event.type, event.object.metadata?.namespace, event.object.data, event.object.binaryData])).toEqual([
      ['ADDED', 'default', { 'X-Frame-Options': 'DENY' }, undefined],
      ['MODIFIED', 'default', { 'X-Frame-Options': 'SAMEORIGIN' }, undefined],
    ])
    expect((await world.files()).get('maps/header-values.map')).toBe('site.example.com/|P|res-set|x-frame-options SAMEORIGIN\n')

    // Another tenant's ConfigMap is not sent, whatever an Ingress names.
    world.double.put(site({ 'nginx.ingress.kubernetes.io/custom-headers': 'tenant-b/security-headers' }))
    await eventually('the ConfigMap to be withdrawn', () => configMapEvents().length === 3)
    await world.converged()
    expect(configMapEvents()[2]).toMatchObject({ type: 'DELETED', object: { metadata: { namespace: 'default', name: 'security-headers' } } })
    expect(configMapEvents()[2]!.object.data).toBeUndefined()
    expect(configMapEvents().some((event) => event.object.metadata?.namespace === 'tenant-b')).toBe(false)
    expect((await world.files()).get('maps/header-values.map')).toBe('')
  })

  it('resumes every watch from the last resourceVersion it saw when the streams drop, without a full resync', async () => {
    for (const object of app(1)) world.double.put(object)
    const forwarder = await world.startForwarder()
    await world.converged()
    // The Gateway API's kinds are not served by the double here (no CRDs), so they are neither listed nor watched.
    const optional = new Set(watchedResources().flatMap((resource) => (resource.optional ? [resource.kind] : [])))
    const watchCount = watchedResources().length - optional.size
    await eventually('every watch', () => world.double.openWatches().length === watchCount)
    const listsBefore = world.double.requests.filter((request) => request.method === 'GET' && !request.query.watch).length
    // A write no watch sees moves the resourceVersion on; only a bookmark tells each watch it may resume from there.
    world.double.put({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'unwatched', namespace: 'default' } })
    const lastSeen = world.double.resourceVersion
    world.double.bookmark()
    await eventually('every watch to take the bookmark', () =>
      Object.entries(forwarder.resourceVersions).every(([kind, version]) => optional.has(kind) || version === lastSeen),
    )

    world.double.dropWatches()
    // Made while no watch is open: the resumed watches replay it from their resourceVersion.
    for (const object of app(2)) world.double.put(object)
    await eventually('every watch again', () => world.double.openWatches().length === watchCount)
    await world.converged()
    const resumed = world.double.requests.filter((request) => request.query.watch === 'true').slice(-watchCount)
    expect(resumed.every((request) => request.query.resourceVersion === lastSeen)).toBe(true)
    expect(world.double.requests.filter((request) => request.method === 'GET' && !request.query.watch)).toHaveLength(listsBefore)
    expect(world.received.filter((write) => write.method === 'PUT')).toHaveLength(1)
  })

  it('lists again and sends a full resync when a resumed watch gets 410 Expired, so a change it never saw is not lost', async () => {
    for (const object of [...app(1), ...app(2)]) world.double.put(object)
    await world.startForwarder()
    await world.converged()

    world.double.dropWatches()
    // Deleted and compacted away before the watches resume: no watch event can carry this deletion.
    for (const object of app(2)) world.double.remove(object)
    world.double.compact()
    await eventually('a second resync', () => world.received.filter((write) => write.method === 'PUT').length >= 2)
    await world.converged()
    expect(world.log.some((line) => /expired \(410\); listing again/.test(line))).toBe(true)
    const resync = world.received.filter((write) => write.method === 'PUT').at(-1)!
    expect(names(resync.body.items!, 'Ingress')).toEqual(['app-1'])
    expect([...(await world.files()).values()].join('\n')).not.toMatch(/app-2\.example\.com/)
  })

  it('sends a batch again after 503 with Retry-After, and after a network-level 500, until it is delivered', async () => {
    await world.startForwarder()
    await eventually('the first resync', () => world.committed.length === 1)
    world.faults.push(
      { status: 503, headers: { 'retry-after': '1' }, body: { error: { message: 'HEAD is contended' } } },
      { status: 500, body: { error: { message: 'storage down' } } },
    )
    for (const object of app(7)) world.double.put(object)
    await world.converged()
    await eventually('the answer to the delivered batch', () => world.committed.length === 2)
    const attempts = world.received.filter((write) => write.method === 'POST')
    expect(attempts.map((write) => write.status).slice(0, 3)).toEqual([503, 500, 200])
    expect(attempts[1]!.body).toEqual(attempts[0]!.body)
    expect(attempts[2]!.body).toEqual(attempts[0]!.body)
    expect(world.log.some((line) => /503 HEAD is contended; sending again in \d+ ms/.test(line))).toBe(true)
  })

  it('logs a batch the function refuses as wrong with its message and path, does not send it again, and repairs with a resync', async () => {
    await world.startForwarder()
    await eventually('the first resync', () => world.committed.length === 1)
    world.faults.push({ status: 400, body: { error: { message: 'must be one of ADDED, MODIFIED, DELETED', path: 'events[0].type' } } })
    world.double.put(service('refused'))
    await eventually('the resync that follows', () => world.received.filter((write) => write.method === 'PUT').length === 2)
    await world.converged()
    expect(
      world.log.some((line) => /400 must be one of ADDED, MODIFIED, DELETED \(at events\[0\]\.type\); 1 event\(s\) not sent, a resync follows/.test(line)),
    ).toBe(true)
    expect(
      world.received.filter((write) => write.method === 'POST' && write.body.events?.some((event) => event.object.metadata?.name === 'refused')),
    ).toHaveLength(1)
    expect(names(world.received.at(-1)!.body.items!, 'Service')).toContain('refused')
  })

  it('sends the open batch when stopped', async () => {
    const forwarder = await world.startForwarder({ delivery: { delayMs: 60_000, backoff: { baseMs: 20, maxMs: 200 } } })
    await eventually('the first resync', () => world.committed.length === 1)
    world.double.put(service('last-words'))
    await eventually('the event to be batched', () => forwarder.pending)
    await forwarder.stop()
    expect(names(world.sentObjects(), 'Service')).toContain('last-words')
    expect(forwarder.pending).toBe(false)
  })
})
