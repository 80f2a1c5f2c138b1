import { readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { originAllowed } from '../../core/registry/agent-origins.ts'
import type { createApp } from '../../functions/app/app.ts'
import { withDefaultNamespace } from './default-namespace.ts'
import { loadObjects } from './load-objects.ts'
import { exampleQuickstart, quickstartLines, quickstartSteps, reachableAt } from './local-quickstart.ts'

const EXAMPLE = fileURLToPath(new URL('../../infra/examples', import.meta.url))
/** The example's binds, on loopback: HAProxy serves it on this machine only. */
const BINDS = { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' }
/** Agents on this machine, which the function may push to: the quickstart's follows the example. */
const LOCAL_AGENTS = 'http://127.0.0.1:*'

type ExampleRecord = { httpBind: string; agentOrigins?: string[] }

/**
 * `npm start`'s embedded default: a cluster `example` registered once, fed the objects of
 * infra/examples/ through the same HTTP API a forwarder uses, its token kept beside the data;
 * then what to run to see it served through HAProxy on this machine, pushes included.
 */
export async function seedExample(
  app: ReturnType<typeof createApp>,
  admin: string,
  data: string,
  url: string,
  print: (line: string) => void = console.log,
): Promise<void> {
  const tokenFile = join(data, 'example-token')
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    if (!response.ok) throw new Error(`${method} ${path} for the example cluster: ${response.status} ${await response.text()}`)
    return response.json() as Promise<unknown>
  }
  const quickstart = exampleQuickstart(url, shown(data))

  let token = await readFile(tokenFile, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  )
  let record: ExampleRecord
  if (!token) {
    const registered = (await call('POST', '/v1/clusters', admin, { id: 'example', ...BINDS, agentOrigins: [LOCAL_AGENTS] })) as ExampleRecord & {
      token: string
    }
    token = registered.token
    record = registered
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 })
  } else {
    record = (await call('GET', '/v1/clusters/example', admin)) as ExampleRecord
    // Registered by an earlier npm start, before the example allowed the local agent: pushes would never come.
    const origins = record.agentOrigins ?? []
    if (!originAllowed(origins, `http://${quickstart.listen}`))
      record = (await call('PATCH', '/v1/clusters/example', admin, { agentOrigins: [...origins, LOCAL_AGENTS] })) as ExampleRecord
  }
  const items = (await loadObjects([EXAMPLE])).map(({ object }) => withDefaultNamespace(object, 'default'))
  const result = (await call('PUT', '/v1/clusters/example/objects', token, { apiVersion: 'v1', kind: 'List', items })) as {
    generation: number
    manifest: string
  }
  print(`example cluster: ${items.length} objects from ${relative(process.cwd(), EXAMPLE)}, generation ${result.generation}, manifest ${result.manifest}`)
  print(`  curl -H "Authorization: Bearer $(cat ${shown(tokenFile)})" ${url}/v1/clusters/example/head`)
  print(`  curl -H "Authorization: Bearer $(cat ${shown(tokenFile)})" ${url}/v1/clusters/example/manifests/${result.manifest}`)
  const steps = quickstartSteps({ ...quickstart, http: { ...quickstart.http, ...reachableAt(record.httpBind) } })
  print('served through HAProxy on this machine (haproxy 2.6 or newer, python3), with the agent taking each change the function pushes:')
  for (const line of quickstartLines(steps)) print(`  ${line}`)
}

/** A path as typed from the current directory: relative below it, absolute elsewhere. */
function shown(path: string): string {
  const near = relative(process.cwd(), path)
  return near.startsWith('..') ? path : near
}
