import { readFileSync } from 'node:fs'
import { parseAllDocuments } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BackendEcho } from '../support/named-backends.ts'
import { projectRoot } from '../support/run-cli.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * The README's migration example, read from the README itself: its annotated Ingresses and its
 * Gateway and HTTPRoute, each served through HAProxy, answer the same requests the same way.
 */

/** The YAML block after `<!-- migration-example:NAME -->` in the README, as the objects `kubectl apply` would store (namespace and creation time set). */
function readmeObjects(name: string): unknown[] {
  const readme = readFileSync(`${projectRoot}/README.md`, 'utf8')
  const block = new RegExp(`<!-- migration-example:${name} -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1]
  if (!block) throw new Error(`README.md has no migration-example:${name} block`)
  return parseAllDocuments(block).map((document, i) => {
    const object = document.toJS() as { kind: string; metadata: Record<string, unknown> }
    const clusterScoped = object.kind === 'GatewayClass'
    // Created in the order written: a canary comes after the Ingress it shadows, as it is applied.
    const creationTimestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString().replace('.000', '')
    return { ...object, metadata: { ...object.metadata, ...(clusterScoped ? {} : { namespace: 'default' }), creationTimestamp } }
  })
}

const HOST = 'shop.example.com'
const REQUESTS = 500
/** The canary's share is 20%: at 500 requests its standard deviation is under 2 points, so 6 points hold a right split all but about once in 10^6 runs. */
const TOLERANCE = 0.06

describe("the README's migration example", () => {
  let services: ServiceBackends
  const served: Record<'ingress' | 'gateway', ServedCluster | undefined> = { ingress: undefined, gateway: undefined }

  beforeAll(async () => {
    services = await startServices(['api', 'web', 'web-next'])
    served.ingress = await serveCluster([...services.objects, ...readmeObjects('ingress')])
    served.gateway = await serveCluster([...services.objects, ...readmeObjects('gateway')])
  })
  afterAll(async () => {
    await Promise.all(Object.values(served).map((cluster) => cluster?.stop()))
    await services?.close()
  })

  for (const kind of ['ingress', 'gateway'] as const) {
    it(`serves every object of the ${kind} form, none rejected or warned about`, () => {
      expect(served[kind]!.model.rejections).toEqual([])
      expect(served[kind]!.model.warnings).toEqual([])
    })
  }

  it('cuts /api off before the api Service and sets X-Env there, in both forms', async () => {
    for (const kind of ['ingress', 'gateway'] as const) {
      const echoes = await Promise.all(
        ['/api/items?q=1', '/api', '/api/'].map(async (path) => {
          const response = await served[kind]!.get(HOST, path)
          return { answered: answeredBy(response), echo: JSON.parse(response.body) as BackendEcho }
        }),
      )
      expect(
        echoes.map(({ answered, echo }) => [answered, echo.path, echo.headers['x-env']]),
        kind,
      ).toEqual([
        ['api', '/items?q=1', 'prod'],
        ['api', '/', 'prod'],
        ['api', '/', 'prod'],
      ])
    }
  })

  it('sends /apix and the rest to web, a fifth of it to web-next, in both forms', async () => {
    for (const kind of ['ingress', 'gateway'] as const) {
      const answers: string[] = []
      for (let i = 0; i < REQUESTS; i++) answers.push(answeredBy(await served[kind]!.get(HOST, i % 2 === 0 ? '/' : '/apix')))
      expect(new Set(answers), kind).toEqual(new Set(['web', 'web-next']))
      const share = answers.filter((answer) => answer === 'web-next').length / REQUESTS
      expect(Math.abs(share - 0.2), `${kind}: web-next took ${share}`).toBeLessThan(TOLERANCE)
    }
  })
})
