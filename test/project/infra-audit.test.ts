import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { AUDITED_RESOURCES } from '../../core/ingest/audited-resources.ts'

const read = (name: string) => parse(readFileSync(fileURLToPath(new URL(`../../infra/audit/${name}`, import.meta.url)), 'utf8'))

interface Rule {
  level: string
  verbs?: string[]
  resources?: { group?: string; resources?: string[] }[]
  namespaces?: string[]
}

describe('infra/audit/policy.yaml', () => {
  const policy = read('policy.yaml') as { apiVersion: string; kind: string; omitStages?: string[]; rules: Rule[] }

  it('is an audit.k8s.io/v1 Policy that sends only ResponseComplete', () => {
    expect(policy).toMatchObject({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy' })
    expect([...(policy.omitStages ?? [])].sort()).toEqual(['Panic', 'RequestReceived', 'ResponseStarted'])
  })

  it('logs exactly the resources hapedge reads, and their status where it carries labels and annotations, at RequestResponse for every write', () => {
    const [capture, ...rest] = policy.rules
    expect(capture).toMatchObject({ level: 'RequestResponse' })
    expect([...(capture!.verbs ?? [])].sort()).toEqual(['create', 'delete', 'deletecollection', 'patch', 'update'])
    expect(capture!.namespaces).toBeUndefined()
    const named = capture!.resources!.flatMap(({ group, resources }) => (resources ?? []).map((resource) => `${group ?? ''}/${resource}`)).sort()
    const expected = AUDITED_RESOURCES.flatMap(({ group, resource, status }) => [
      `${group}/${resource}`,
      ...(status ? [`${group}/${resource}/status`] : []),
    ]).sort()
    expect(named).toEqual(expected)
    expect(rest).toEqual([{ level: 'None' }])
  })
})

describe('infra/audit/webhook-kubeconfig.yaml', () => {
  const kubeconfig = read('webhook-kubeconfig.yaml')

  it("points the API server at the cluster's audit route over HTTPS with a bearer token", () => {
    expect(kubeconfig).toMatchObject({ apiVersion: 'v1', kind: 'Config', 'current-context': 'hapedge' })
    const context = kubeconfig.contexts.find((entry: { name: string }) => entry.name === kubeconfig['current-context']).context
    const cluster = kubeconfig.clusters.find((entry: { name: string }) => entry.name === context.cluster).cluster
    const user = kubeconfig.users.find((entry: { name: string }) => entry.name === context.user).user
    expect(new URL(cluster.server)).toMatchObject({ protocol: 'https:', pathname: '/v1/clusters/CLUSTER_ID/audit' })
    expect(user).toEqual({ token: '${HAPEDGE_CLUSTER_TOKEN}' })
  })
})
