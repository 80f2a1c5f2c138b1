import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTree } from '../integration/read-tree.ts'
import { app } from '../support/contracts/cluster-apps.ts'
import { rawRequest, type RawResponse } from '../support/raw-http.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/**
 * Request targets an attacker writes by hand (`%2F`, `%2e%2e`, `..`, NUL, backslash, overlong,
 * uppercase hex) on the routes whose segments name stored content, sent byte for byte to the real
 * `hapedge serve`: each is refused, none serves another cluster's content or a file outside the
 * data directory, and none writes one. Dot segments are resolved before routing (as WHATWG URLs
 * are), so they can only name another route, which then checks its own token.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const put = (object: unknown) => ({ type: 'MODIFIED', object })
const agentReport = JSON.stringify({ generation: 1, manifest: null, applied: null, appliedAt: null, lastError: null })

const THEIRS = '{theirs}'
const OUTSIDE = '{outside}'

interface Variant {
  name: string
  target: string
  status: number
}

/** Ways to ask `…/{route}/{sha256}` of cluster `mine` for something else than its own content named by its sha256. */
function contentVariants(route: 'blobs' | 'manifests', theirs: string, outside: string): Variant[] {
  const at = `/v1/clusters/mine/${route}`
  return [
    { name: "another cluster's sha256", target: `${at}/${theirs}`, status: 404 },
    { name: '%2F and .. in the sha256', target: `${at}/..%2F..%2Ftheirs%2F${route}%2F${theirs}`, status: 400 },
    { name: '%2E%2E%2F in the sha256', target: `${at}/%2E%2E%2F%2E%2E%2Ftheirs%2F${route}%2F${theirs}`, status: 400 },
    { name: '%2e%2e segments, resolved to another cluster', target: `${at}/%2e%2e/%2e%2e/theirs/${route}/${theirs}`, status: 403 },
    { name: '.. segments, resolved to another cluster', target: `${at}/../../theirs/${route}/${theirs}`, status: 403 },
    { name: '%00 after the sha256', target: `${at}/${theirs}%00`, status: 400 },
    { name: 'a raw NUL after the sha256', target: `${at}/${theirs}\0`, status: 400 },
    { name: 'raw backslashes', target: `${at}/..\\..\\theirs\\${route}\\${theirs}`, status: 400 },
    { name: '%5C backslashes', target: `${at}/..%5C..%5Ctheirs%5C${route}%5C${theirs}`, status: 400 },
    { name: '65 hex digits', target: `${at}/${theirs}0`, status: 400 },
    { name: 'uppercase hex', target: `${at}/${theirs.toUpperCase()}`, status: 400 },
    { name: 'an overlong segment', target: `${at}/${'0'.repeat(20_000)}`, status: 431 },
    { name: 'a path to the admin token', target: `${at}/..%2F..%2F..%2Fadmin-token`, status: 400 },
    { name: 'a path to the deployment secret', target: `${at}/..%2F..%2F..%2Fdeployment-secret`, status: 400 },
    { name: 'a path out of the data directory', target: `${at}/..%2F..%2F..%2F..%2Foutside%2F${outside}`, status: 400 },
    { name: 'the sha256 of a file outside the data directory', target: `${at}/${outside}`, status: 404 },
  ]
}

/** Ways to name another cluster, or no cluster, in the id segment. */
function clusterIdVariants(theirs: string): Variant[] {
  const rest = `blobs/${theirs}`
  return [
    { name: 'another cluster by its id', target: `/v1/clusters/theirs/${rest}`, status: 403 },
    { name: '%2F and .. in the id', target: `/v1/clusters/mine%2F..%2Ftheirs/${rest}`, status: 403 },
    { name: '..%2F after the id', target: `/v1/clusters/mine/..%2Ftheirs/${rest}`, status: 404 },
    { name: '%2e%2e for the id', target: `/v1/clusters/%2e%2e/clusters/theirs/${rest}`, status: 403 },
    { name: 'the id in uppercase', target: `/v1/clusters/MINE/${rest}`, status: 403 },
    { name: '%00 after the id', target: `/v1/clusters/mine%00/${rest}`, status: 403 },
    { name: 'a raw NUL after the id', target: `/v1/clusters/mine\0/${rest}`, status: 400 },
    { name: 'backslashes around the id', target: `/v1/clusters/mine\\..\\theirs/${rest}`, status: 400 },
    { name: 'an overlong id', target: `/v1/clusters/${'m'.repeat(300)}/${rest}`, status: 403 },
    { name: 'an absolute-form target', target: `http://elsewhere.example/v1/clusters/theirs/${rest}`, status: 403 },
  ]
}

/** With the admin token, which may read every cluster: no id may be a path, in the registry or out of the data directory. */
const adminVariants: Variant[] = [
  { name: 'an id climbing out of the data directory', target: '/v1/clusters/..%2F..%2F..%2Foutside/head', status: 401 },
  { name: 'an id naming the admin token file', target: '/v1/clusters/..%2F..%2Fadmin-token/head', status: 401 },
  { name: 'an id with .. between two clusters', target: '/v1/clusters/mine%2F..%2Ftheirs/head', status: 401 },
  { name: 'an id with %00', target: '/v1/clusters/theirs%00/head', status: 401 },
  { name: 'a blob path to the admin token', target: '/v1/clusters/mine/blobs/..%2F..%2F..%2Fadmin-token', status: 400 },
  { name: 'a manifest path out of the data directory', target: '/v1/clusters/mine/manifests/..%2F..%2F..%2F..%2Foutside', status: 400 },
]

/** An agent's report is written under its pod name: a pod that is a path is refused before anything is written. */
const podVariants: Variant[] = [
  { name: '%2F and .. in the pod', target: '/v1/clusters/mine/agents/..%2F..%2F..%2F..%2Foutside%2Fwritten', status: 400 },
  { name: '%2e%2e for the pod, resolved to no route', target: '/v1/clusters/mine/agents/%2e%2e', status: 404 },
  { name: '%00 in the pod', target: '/v1/clusters/mine/agents/haproxy-0%00', status: 400 },
  { name: 'a backslash in the pod', target: '/v1/clusters/mine/agents/..%5Cwritten', status: 400 },
  { name: 'an overlong pod', target: `/v1/clusters/mine/agents/${'p'.repeat(300)}`, status: 400 },
]

describe('encoded path variants through hapedge serve', () => {
  let tmp: string
  let served: Served
  let tokens: { mine: string; theirs: string; admin: string }
  let content: { mine: string; theirs: string; theirsRecord: string; outside: string; secrets: string[] }
  const answers: RawResponse[] = []
  // The variants are listed before the server exists: their sha256s are filled in when sent.
  const filled = (target: string) =>
    target.replaceAll(THEIRS, content.theirs).replaceAll(THEIRS.toUpperCase(), content.theirs.toUpperCase()).replaceAll(OUTSIDE, content.outside)

  const send = async (target: string, token: string, init: { method?: string; body?: string } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) }
    const answer = await rawRequest(served.url, target, { ...init, headers })
    answers.push(answer)
    return answer
  }

  beforeAll(async () => {
    tmp = await makeTempDir('hapedge-e2e-paths')
    const secretText = `a file beside the data directory ${sha256(tmp)}`
    const outside = sha256(secretText)
    await mkdir(join(tmp, 'outside'))
    await writeFile(join(tmp, 'outside', outside), secretText)
    served = await startServe(['--data', join(tmp, 'data')])
    const call = async (path: string, token: string, body: unknown) => {
      const response = await fetch(served.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
      return (await response.json()) as { token: string; manifest: string }
    }
    const mine = (await call('/v1/clusters', served.adminToken, { id: 'mine' })).token
    const theirs = (await call('/v1/clusters', served.adminToken, { id: 'theirs' })).token
    tokens = { mine, theirs, admin: served.adminToken }
    const mineManifest = (await call('/v1/clusters/mine/events', mine, { events: app(1).map(put) })).manifest
    const theirsManifest = (await call('/v1/clusters/theirs/events', theirs, { events: app(7).map(put) })).manifest
    const theirsRecord = await (
      await fetch(`${served.url}/v1/clusters/theirs/manifests/${theirsManifest}`, { headers: { authorization: `Bearer ${theirs}` } })
    ).text()
    const secrets = [secretText, served.adminToken, (await readFile(join(tmp, 'data', 'deployment-secret'), 'utf8')).trim()]
    content = { mine: mineManifest, theirs: theirsManifest, theirsRecord, outside, secrets }
  })

  afterAll(async () => {
    await served?.stop()
    await removeTempDir(tmp)
  })

  it("serves this cluster's own content by its sha256 (what every variant below departs from)", async () => {
    const own = await send(`/v1/clusters/mine/manifests/${content.mine}`, tokens.mine)
    expect(own.status).toBe(200)
    expect(sha256(own.body)).toBe(content.mine)
  })

  for (const route of ['blobs', 'manifests'] as const) {
    it.for(contentVariants(route, THEIRS, OUTSIDE))(`refuses …/${route}/ with $name: $status`, async ({ target, status }) => {
      const answer = await send(filled(target), tokens.mine)
      expect(answer.status, answer.body).toBe(status)
    })
  }

  it.for(clusterIdVariants(THEIRS))("refuses this cluster's token with $name: $status", async ({ target, status }) => {
    const answer = await send(filled(target), tokens.mine)
    expect(answer.status, answer.body).toBe(status)
  })

  it.for(adminVariants)('refuses the admin token with $name: $status', async ({ target, status }) => {
    const answer = await send(target, tokens.admin)
    expect(answer.status, answer.body).toBe(status)
  })

  it.for(podVariants)('refuses an agent report with $name: $status', async ({ target, status }) => {
    const answer = await send(target, tokens.mine, { method: 'POST', body: agentReport })
    expect(answer.status, answer.body).toBe(status)
  })

  it("answered no refused request with another cluster's content, a secret or a file outside the data directory", () => {
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(refused.length).toBe(answers.length - 1)
    for (const { body } of refused) {
      expect(body).not.toContain(content.theirsRecord)
      for (const secret of content.secrets) expect(body).not.toContain(secret)
    }
  })

  it('wrote nothing outside the data directory', async () => {
    const files = [...(await readTree(tmp)).keys()].filter((file) => !file.startsWith('data/'))
    expect(files).toEqual([`outside/${content.outside}`])
  })
})
