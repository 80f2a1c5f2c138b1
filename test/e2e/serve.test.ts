import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { httpSource } from '../../processes/agent/http-source.ts'
import { auditEvent, deletedStatus, eventList, served as asServed } from '../support/audit-batches.ts'
import { app, coldContext } from '../support/contracts/cluster-apps.ts'
import { ingress } from '../support/objects.ts'
import { readTextTree } from '../integration/read-tree.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { hapedge } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/** A rendered directory's files, without the manifest.json written for people. */
async function readDir(dir: string): Promise<Map<string, string>> {
  const files = await readTextTree(dir)
  files.delete('manifest.json')
  return files
}

describe('hapedge serve, end to end on loopback with local disk', () => {
  let tmp: string
  let served: Served
  beforeAll(async () => {
    tmp = await makeTempDir('hapedge-e2e')
    served = await startServe(['--data', join(tmp, 'data')])
  })
  afterAll(async () => {
    await served?.stop()
    await removeTempDir(tmp)
  })

  it('takes a stream of watch events, audit batches and a resync, and serves the generation a full `hapedge render` of the same objects gives', async () => {
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const response = await fetch(served.url + path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      const json = (await response.json()) as Record<string, unknown>
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
      return json
    }
    const { token } = (await call('POST', '/v1/clusters', served.adminToken, { id: 'e2e', httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' })) as {
      token: string
    }

    const live = new Map<string, unknown>()
    const key = (object: unknown) => JSON.stringify([(object as { kind: string }).kind, (object as { metadata: { name: string } }).metadata.name])
    const send = async (type: 'MODIFIED' | 'DELETED', objects: unknown[]) => {
      for (const object of objects) type === 'DELETED' ? live.delete(key(object)) : live.set(key(object), object)
      return call('POST', '/v1/clusters/e2e/events', token, { events: objects.map((object) => ({ type, object })) })
    }
    for (let n = 0; n < 24; n += 4)
      await send(
        'MODIFIED',
        [n, n + 1, n + 2, n + 3].flatMap((i) => app(i)),
      )
    await send('MODIFIED', [app(3, ['/', '/v2'])[0], app(7, ['/', '/admin'])[0]])
    await send('DELETED', app(5))
    const shared = ingress({ name: 'shared', rules: [{ host: 'app-1.example.com', paths: [{ path: '/shared', service: 'app-2' }] }] })
    await send('MODIFIED', [shared])

    // The audit webhook's batches: app 30 created, app 2's Ingress deleted (known by a Status), and the same batch retried.
    const resources: Record<string, { resource: string; group: string }> = {
      Ingress: { resource: 'ingresses', group: 'networking.k8s.io' },
      Service: { resource: 'services', group: '' },
      EndpointSlice: { resource: 'endpointslices', group: 'discovery.k8s.io' },
    }
    const created = app(30).map((object, i) => asServed(object, String(500 + i)))
    const removed = app(2)[0]!
    const batch = eventList(
      ...created.map((object) =>
        auditEvent({ verb: 'create', ...resources[object.kind]!, namespace: 'default', name: object.metadata.name, responseObject: object }),
      ),
      auditEvent({
        verb: 'delete',
        ...resources.Ingress!,
        namespace: 'default',
        name: 'app-2',
        responseObject: deletedStatus('networking.k8s.io', 'ingresses', 'app-2', 'uid-app-2'),
      }),
    )
    expect(await call('POST', '/v1/clusters/e2e/audit', token, batch)).toMatchObject({ committed: true, skipped: 0, problems: [] })
    expect(await call('POST', '/v1/clusters/e2e/audit', token, batch)).toMatchObject({ committed: false })
    for (const object of created) live.set(key(object), object)
    live.delete(key(removed))

    // A resync that no longer holds app 9: its objects go, everything else is unchanged.
    for (const object of app(9)) live.delete(key(object))
    const resync = await call('PUT', '/v1/clusters/e2e/objects', token, { apiVersion: 'v1', kind: 'List', items: [...live.values()] })
    expect(resync).toMatchObject({ committed: true, rejected: [] })

    const head = (await call('GET', '/v1/clusters/e2e/head', token)) as { generation: number; manifest: string }
    expect(head.generation).toBe(resync.generation)
    expect(head.manifest).toBe(resync.manifest)

    const objectsFile = join(tmp, 'objects.json')
    await writeFile(objectsFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...live.values()] }))
    const rendered = await hapedge([
      'render',
      '--in',
      objectsFile,
      '--out',
      join(tmp, 'rendered'),
      '--http-bind',
      '127.0.0.1:8080',
      '--https-bind',
      '127.0.0.1:8443',
    ])
    expect(rendered.code, rendered.stderr).toBe(0)
    const manifestJson = JSON.parse(await readFile(join(tmp, 'rendered', 'manifest.json'), 'utf8')) as { generation: string }
    expect(manifestJson.generation).toBe(head.manifest)

    // Read back over HTTP as an agent does: every blob checked against its sha256.
    const files = await readGeneration(httpSource(served.url, 'e2e', token), 'e2e', head.manifest, coldContext())
    expect(files).toEqual(await readDir(join(tmp, 'rendered')))

    // The agent as an init container: the generation written whole, ready for `haproxy -f DIR/current`, into the directory its volume mounts.
    await mkdir(join(tmp, 'agent'))
    const once = await hapedge(['agent', '--once', '--source', served.url, '--cluster', 'e2e', '--token', token, '--dir', join(tmp, 'agent')])
    expect(once.stderr).toBe('')
    expect(once.stdout).toBe(
      `generation ${head.generation} (${head.manifest}) written to ${join(tmp, 'agent')}/current, with ${join(tmp, 'agent', 'agent.cfg')}\n`,
    )
    expect(await readDir(join(tmp, 'agent', 'current'))).toEqual(files)
    const checked = await haproxyCheck(join(tmp, 'agent', 'current'))
    expect(checked.output).not.toMatch(/ALERT/)
    expect(checked.ok).toBe(true)
  })
})
