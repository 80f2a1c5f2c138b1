import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { originAllowed } from '../../../core/registry/agent-origins.ts'
import { exampleQuickstart, quickstartLines, quickstartSteps } from '../../../processes/cli/local-quickstart.ts'
import { seedExample } from '../../../processes/cli/seed-example.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
import { ADMIN, harness } from '../../functions/app/app-harness.ts'

const URL = 'http://127.0.0.1:8787'
/** Where the quickstart's following agent takes pushes. */
const AGENT = `http://${exampleQuickstart().listen}`

describe("npm start's example cluster", () => {
  let data: string
  beforeEach(async () => void (data = await makeTempDir('hapedge-seed')))
  afterEach(() => removeTempDir(data))

  const record = async (server: ReturnType<typeof harness>) =>
    (await (await server.call('GET', '/v1/clusters/example', ADMIN)).json()) as { httpBind: string; agentOrigins: string[] }

  it('is registered with loopback binds and agentOrigins that let the function push to the local agent, and the quickstart is printed', async () => {
    const server = harness()
    const printed: string[] = []
    await seedExample(server.app, ADMIN, data, URL, (line) => void printed.push(line))
    const registered = await record(server)
    expect(registered.httpBind).toMatch(/^127\.0\.0\.1:/)
    expect(originAllowed(registered.agentOrigins, AGENT)).toBe(true)
    const quickstart = exampleQuickstart(URL, data)
    expect(printed.join('\n')).toContain(
      quickstartLines(quickstartSteps(quickstart))
        .map((line) => `  ${line}`)
        .join('\n'),
    )
  })

  it('lets the local agent be pushed to on a data directory an earlier npm start registered without agentOrigins', async () => {
    const server = harness()
    const token = await server.register('example', { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' })
    await writeFile(join(data, 'example-token'), `${token}\n`)
    expect(originAllowed((await record(server)).agentOrigins ?? [], AGENT)).toBe(false)
    await seedExample(server.app, ADMIN, data, URL, () => {})
    expect(originAllowed((await record(server)).agentOrigins, AGENT)).toBe(true)
    // Once allowed, a later start changes nothing.
    const before = await record(server)
    await seedExample(server.app, ADMIN, data, URL, () => {})
    expect(await record(server)).toEqual(before)
  })

  it('prints the request through HAProxy on the port the cluster binds now', async () => {
    const server = harness()
    await seedExample(server.app, ADMIN, data, URL, () => {})
    expect((await server.call('PATCH', '/v1/clusters/example', ADMIN, { httpBind: '0.0.0.0:18080' })).status).toBe(200)
    const printed: string[] = []
    await seedExample(server.app, ADMIN, data, URL, (line) => void printed.push(line))
    expect(printed).toContain("  curl --retry 5 --retry-connrefused -H 'Host: a.docs.example.local' http://127.0.0.1:18080/")
  })
})
