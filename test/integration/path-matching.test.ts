import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingress, type PathType } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Path matching through the real HAProxy, row by row from the Kubernetes documentation's table
 * (https://kubernetes.io/docs/concepts/services-networking/ingress/#examples). Each row gets its
 * own host, and each path of a row its own Service, so the answering backend names the route.
 * "No" in the table means the request falls to the default backend, here `default-backend`.
 */

const DEFAULT = 'default'

interface Row {
  /** The table row, as the documentation words it. */
  doc: string
  routes: [PathType, string][]
  /** Request path → index of the route that must answer, or DEFAULT. */
  requests: [string, number | typeof DEFAULT][]
}

const documentedRows: Row[] = [
  {
    doc: 'Prefix / — (all paths) — Yes',
    routes: [['Prefix', '/']],
    requests: [
      ['/', 0],
      ['/foo', 0],
      ['/foo/', 0],
      ['/aaa/bbb/ccc', 0],
      ['/index.html', 0],
    ],
  },
  { doc: 'Exact /foo — /foo — Yes', routes: [['Exact', '/foo']], requests: [['/foo', 0]] },
  { doc: 'Exact /foo — /bar — No', routes: [['Exact', '/foo']], requests: [['/bar', DEFAULT]] },
  { doc: 'Exact /foo — /foo/ — No', routes: [['Exact', '/foo']], requests: [['/foo/', DEFAULT]] },
  {
    doc: 'Exact /foo/ — /foo — No',
    routes: [['Exact', '/foo/']],
    requests: [
      ['/foo', DEFAULT],
      ['/foo/', 0],
    ],
  },
  {
    doc: 'Prefix /foo — /foo, /foo/ — Yes',
    routes: [['Prefix', '/foo']],
    requests: [
      ['/foo', 0],
      ['/foo/', 0],
    ],
  },
  {
    doc: 'Prefix /foo/ — /foo, /foo/ — Yes',
    routes: [['Prefix', '/foo/']],
    requests: [
      ['/foo', 0],
      ['/foo/', 0],
    ],
  },
  { doc: 'Prefix /aaa/bb — /aaa/bbb — No', routes: [['Prefix', '/aaa/bb']], requests: [['/aaa/bbb', DEFAULT]] },
  { doc: 'Prefix /aaa/bbb — /aaa/bbb — Yes', routes: [['Prefix', '/aaa/bbb']], requests: [['/aaa/bbb', 0]] },
  { doc: 'Prefix /aaa/bbb/ — /aaa/bbb — Yes, ignores trailing slash', routes: [['Prefix', '/aaa/bbb/']], requests: [['/aaa/bbb', 0]] },
  { doc: 'Prefix /aaa/bbb — /aaa/bbb/ — Yes, matches trailing slash', routes: [['Prefix', '/aaa/bbb']], requests: [['/aaa/bbb/', 0]] },
  { doc: 'Prefix /aaa/bbb — /aaa/bbb/ccc — Yes, matches subpath', routes: [['Prefix', '/aaa/bbb']], requests: [['/aaa/bbb/ccc', 0]] },
  { doc: 'Prefix /aaa/bbb — /aaa/bbbxyz — No, does not match string prefix', routes: [['Prefix', '/aaa/bbb']], requests: [['/aaa/bbbxyz', DEFAULT]] },
  {
    doc: 'Prefix /, /aaa — /aaa/ccc — Yes, matches /aaa prefix',
    routes: [
      ['Prefix', '/'],
      ['Prefix', '/aaa'],
    ],
    requests: [['/aaa/ccc', 1]],
  },
  {
    doc: 'Prefix /, /aaa, /aaa/bbb — /aaa/bbb — Yes, matches /aaa/bbb prefix',
    routes: [
      ['Prefix', '/'],
      ['Prefix', '/aaa'],
      ['Prefix', '/aaa/bbb'],
    ],
    requests: [['/aaa/bbb', 2]],
  },
  {
    doc: 'Prefix /, /aaa, /aaa/bbb — /ccc — Yes, matches / prefix',
    routes: [
      ['Prefix', '/'],
      ['Prefix', '/aaa'],
      ['Prefix', '/aaa/bbb'],
    ],
    requests: [['/ccc', 0]],
  },
  { doc: 'Prefix /aaa — /ccc — No, uses default backend', routes: [['Prefix', '/aaa']], requests: [['/ccc', DEFAULT]] },
  {
    doc: 'Mixed /foo (Prefix), /foo (Exact) — /foo — Yes, prefers Exact',
    routes: [
      ['Prefix', '/foo'],
      ['Exact', '/foo'],
    ],
    requests: [
      ['/foo', 1],
      ['/foo/', 0],
    ],
  },
]

/** Beyond the table: the rules the table illustrates, and what HTTP adds (query strings). */
const furtherRows: Row[] = [
  {
    doc: 'Mixed Exact /foo + Prefix / — Exact wins /foo only',
    routes: [
      ['Exact', '/foo'],
      ['Prefix', '/'],
    ],
    requests: [
      ['/foo', 0],
      ['/foo/', 1],
      ['/foobar', 1],
      ['/', 1],
    ],
  },
  {
    doc: 'longest matching Prefix wins, element by element',
    routes: [
      ['Prefix', '/'],
      ['Prefix', '/aaa'],
      ['Prefix', '/aaa/bbb'],
    ],
    requests: [
      ['/aaa/bbb/ccc/ddd', 2],
      ['/aaa/bbbxyz', 1],
      ['/aaa', 1],
      ['/aaax', 0],
    ],
  },
  {
    doc: 'query strings do not affect matching',
    routes: [
      ['Exact', '/foo'],
      ['Prefix', '/aaa/bbb'],
    ],
    requests: [
      ['/foo?x=1', 0],
      ['/foo?a=b&c', 0],
      ['/foo?next=/bar', 0],
      ['/aaa/bbb?q=/ccc', 1],
      ['/fo?o', DEFAULT],
      ['/aaa/bbbxyz?/aaa/bbb', DEFAULT],
    ],
  },
  {
    doc: 'matching is case sensitive',
    routes: [
      ['Exact', '/foo'],
      ['Prefix', '/aaa'],
    ],
    requests: [
      ['/foo', 0],
      ['/Foo', DEFAULT],
      ['/FOO', DEFAULT],
      ['/aaa/x', 1],
      ['/AAA/x', DEFAULT],
    ],
  },
  {
    doc: 'ImplementationSpecific behaves as Prefix',
    routes: [
      ['ImplementationSpecific', '/foo'],
      ['ImplementationSpecific', '/bar/'],
    ],
    requests: [
      ['/foo', 0],
      ['/foo/', 0],
      ['/foo/x/y', 0],
      ['/foobar', DEFAULT],
      ['/bar', 1],
      ['/bar/x', 1],
      ['/barx', DEFAULT],
    ],
  },
]

const rows = [...documentedRows, ...furtherRows].map((row, r) => ({
  ...row,
  host: `row${r + 1}.paths.test`,
  services: row.routes.map((_, p) => `row${r + 1}-path${p}`),
}))

const cases = rows.flatMap((row) =>
  row.requests.map(([path, expected]) => ({
    label: `${row.doc}: ${path} → ${expected === DEFAULT ? 'default backend' : `${row.routes[expected]![0]} ${row.routes[expected]![1]}`}`,
    host: row.host,
    path,
    expected: expected === DEFAULT ? 'default-backend' : row.services[expected]!,
  })),
)

describe('path matching through HAProxy (Kubernetes docs examples)', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['default-backend', ...rows.flatMap((row) => row.services)])
    const ingresses = rows.map((row, r) =>
      ingress({
        name: `row-${r + 1}`,
        rules: [{ host: row.host, paths: row.routes.map(([pathType, path], p) => ({ pathType, path, service: row.services[p]! })) }],
      }),
    )
    const fallback = ingress({ name: 'fallback', defaultBackend: { service: 'default-backend' } })
    cluster = await serveCluster([...services.objects, ...ingresses, fallback])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('renders every row without rejections', () => {
    expect(cluster.model.rejections).toEqual([])
  })

  for (const { label, host, path, expected } of cases) {
    it(label, async () => {
      const response = await cluster.get(host, path)
      expect(answeredBy(response)).toBe(expected)
      // The backend sees the request as the client sent it, query string included.
      expect(response.json().path).toBe(path)
    })
  }

  describe('Host header', () => {
    const row = rows.find((candidate) => candidate.doc.startsWith('Prefix /aaa/bbb — /aaa/bbb/ccc'))!

    it('still matches with a port (row12.paths.test:8080)', async () => {
      expect(answeredBy(await cluster.get(`${row.host}:8080`, '/aaa/bbb/ccc'))).toBe(row.services[0])
    })

    it('matches case-insensitively (ROW12.Paths.TEST)', async () => {
      expect(answeredBy(await cluster.get(row.host.toUpperCase(), '/aaa/bbb/ccc'))).toBe(row.services[0])
      expect(answeredBy(await cluster.get('Row12.Paths.Test:80', '/aaa/bbb'))).toBe(row.services[0])
    })

    it('an unknown host falls to the default backend', async () => {
      expect(answeredBy(await cluster.get('nowhere.paths.test', '/aaa/bbb'))).toBe('default-backend')
    })
  })
})
