import { sha256Text } from '../../core/hash.ts'
import { HAPROXYCFG, HAPROXYCFG_API_VERSION, type HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { haproxyCfgStatus, type CommitFacts } from '../../core/status/haproxycfg-status.ts'
import { kubeConfigFrom } from '../../functions/adapters/kubernetes/kube-config.ts'
import type { KubeApiDouble, KubeObject } from '../support/kube-api-double.ts'

export const target = { namespace: 'hapedge', name: 'prod' }

/** The credentials hapedge would store for the cluster: the double's URL, a bearer token and its CA. */
export const kubeConfigOf = (double: KubeApiDouble, token = double.token) =>
  kubeConfigFrom({ server: double.url, token, caData: Buffer.from(double.caPem).toString('base64') })

const facts = (generation: number): CommitFacts => {
  const manifest = sha256Text(`manifest ${generation}`)
  return {
    generation,
    manifest,
    committedAt: `2025-06-01T12:00:0${generation % 10}.000Z`,
    files: [{ path: '00-global.cfg', sha256: sha256Text(`global ${generation}`), size: 300, chunked: false }],
    reload: false,
    reloadReasons: [],
    rejected: [],
    pods: [
      {
        pod: 'haproxy-0',
        generation: generation - 1,
        manifest: sha256Text(`manifest ${generation - 1}`),
        applied: 'runtime',
        appliedAt: '2025-06-01T11:00:00.000Z',
        lastError: null,
      },
    ],
  }
}

/** A small status naming `generation`, its conditions as the builder makes them. */
export const statusOf = (generation: number): HAProxyCfgStatus => haproxyCfgStatus(facts(generation))

/** The resource as another writer (or kubectl) leaves it, status included. */
export function resourceWith(status: HAProxyCfgStatus | undefined): KubeObject {
  return { apiVersion: HAPROXYCFG_API_VERSION, kind: HAPROXYCFG.kind, metadata: { ...target }, spec: { cluster: 'prod' }, ...(status ? { status } : {}) }
}

export const storedGeneration = (double: KubeApiDouble) => (double.find(resourceWith(undefined))?.status as HAProxyCfgStatus | undefined)?.generation
