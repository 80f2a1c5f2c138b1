import { ingress } from './objects.ts'

export const SHARED_HOST = 'shared.example.com'

/** Team `team`'s Ingress on the shared host, in a namespace of its own, with an alias of its own (a host it alone names). */
export const teamIngress = (team: string, path = `/${team}`) =>
  ingress({
    name: 'shared',
    namespace: team,
    annotations: { 'nginx.ingress.kubernetes.io/server-alias': `${team}.example.com` },
    rules: [{ host: SHARED_HOST, paths: [{ path, service: 'app-1' }] }],
  })

export const teams = (count: number, from = 0) => Array.from({ length: count }, (_, n) => teamIngress(`team-${from + n}`))
