import { errorBody } from '../../core/api/error-body.ts'
import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
import { routesAnswer, type RoutesAnswer } from '../../core/api/routes-answer.ts'
import type { ServedRoute } from '../../core/fleet/cluster-routes.ts'
import { fetchFailure } from '../fetch-failure.ts'
import { defineCommand } from './command.ts'
import { CommandError } from './command-error.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { clusterFlag, sourceFlag } from './function-flags.ts'

const routesFlags = {
  source: { value: 'URL', required: true, description: 'the URL of the hapedge function' },
  cluster: { value: 'ID', required: true, description: 'the cluster whose routes to list' },
  token: { value: 'TOKEN', required: true, env: 'HAPEDGE_TOKEN', description: 'the cluster token (or the admin token); the variable keeps it out of ps' },
  host: { value: 'HOST', defaultNote: 'every host', description: 'one host only' },
  json: { description: 'print the answers as JSON lines, one page a line, instead of a table' },
} as const satisfies FlagTable

/** `hapedge routes --source URL --cluster ID [--host HOST] [--json]`: what a cluster serves now, host by host. */
export const routesCommand = defineCommand({
  flags: routesFlags,
  example: 'HAPEDGE_TOKEN=hpe.prod-eu.… hapedge routes --source http://127.0.0.1:8787 --cluster prod-eu --host shop.example.com',
  run: listRoutes,
})

async function listRoutes(values: FlagValues<typeof routesFlags>): Promise<number> {
  const cluster = clusterFlag(values.cluster)
  const source = sourceFlag(values.source)
  let after: string | null = null
  let first = true
  do {
    const url = new URL(`${source}/v1/clusters/${cluster}/routes`)
    if (values.host !== undefined) url.searchParams.set('host', values.host)
    if (after !== null) url.searchParams.set('after', after)
    const page: RoutesAnswer = await fetchPage(url, values.token)
    if (values.json) console.log(JSON.stringify(page))
    else printPage(page, first)
    first = false
    after = page.next
  } while (after !== null)
  return 0
}

async function fetchPage(url: URL, token: string): Promise<RoutesAnswer> {
  let response: Response
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  } catch (error) {
    throw new CommandError(`cannot reach ${url.origin}: ${fetchFailure(error)}`)
  }
  if (!response.ok) {
    const refusal = await jsonAnswer(response, `GET ${url.pathname}`).catch(() => undefined)
    throw new CommandError(`${url.pathname}: ${response.status} ${errorBody.safeParse(refusal).data?.error.message ?? response.statusText}`)
  }
  try {
    return parseAnswer(routesAnswer, await jsonAnswer(response, `GET ${url.pathname}`), `the function's answer to GET ${url.pathname}`)
  } catch (error) {
    throw new CommandError((error as Error).message)
  }
}

const COLUMNS = ['HOST', 'MATCH', 'PATH', 'BACKEND', 'SERVERS', 'OWNER'] as const

function printPage(page: RoutesAnswer, first: boolean): void {
  if (first) {
    console.log(
      `generation ${page.generation}; requests no rule matches: ${page.defaultBackend ? `${page.defaultBackend.backend} (${servers(page.defaultBackend.servers)})` : '404'}`,
    )
    console.log(COLUMNS.join('\t'))
  }
  for (const route of page.routes) console.log(row(route).join('\t'))
}

function row(route: ServedRoute): string[] {
  const host = route.host === '' ? '*' : route.host
  return [route.tlsSecret ? `${host} (tls)` : host, route.match, route.path, route.backend, servers(route.servers), route.owner]
}

const servers = (list: ServedRoute['servers']) =>
  list.length === 0
    ? 'none: 503'
    : list.map((server) => (server.family === 'IPv6' ? `[${server.address}]:${server.port}` : `${server.address}:${server.port}`)).join(',')
