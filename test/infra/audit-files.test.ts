import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { INFRA, readYamlDocuments } from './infra-files.ts'

const names = z.array(z.string().min(1)).optional()

/** `audit.k8s.io/v1` Policy, field for field as k8s.io/apiserver/pkg/apis/audit/v1 defines it; strict, as the API server decodes its policy file. */
const stage = z.enum(['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'])
const auditPolicy = z.strictObject({
  apiVersion: z.literal('audit.k8s.io/v1'),
  kind: z.literal('Policy'),
  metadata: z.object({ name: z.string() }).optional(),
  omitStages: z.array(stage).optional(),
  omitManagedFields: z.boolean().optional(),
  rules: z
    .array(
      z.strictObject({
        level: z.enum(['None', 'Metadata', 'Request', 'RequestResponse']),
        users: names,
        userGroups: names,
        verbs: names,
        resources: z.array(z.strictObject({ group: z.string().optional(), resources: names, resourceNames: names })).optional(),
        namespaces: names,
        nonResourceURLs: names,
        omitStages: z.array(stage).optional(),
        omitManagedFields: z.boolean().optional(),
      }),
    )
    .min(1),
})

/** The parts of a `v1` Config (kubeconfig) the webhook file uses, strict, so a misspelt field is not silently ignored by the API server. */
const named = <T extends z.ZodType>(field: string, shape: T) => z.array(z.strictObject({ name: z.string().min(1), [field]: shape })).min(1)
const kubeconfig = z.strictObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Config'),
  clusters: named(
    'cluster',
    z.strictObject({
      server: z.url(),
      'certificate-authority': z.string().optional(),
      'certificate-authority-data': z.string().optional(),
      'tls-server-name': z.string().optional(),
    }),
  ),
  users: named('user', z.strictObject({ token: z.string().optional(), tokenFile: z.string().optional() })),
  contexts: named('context', z.strictObject({ cluster: z.string(), user: z.string() })),
  'current-context': z.string(),
})

describe('infra/audit/', () => {
  it('policy.yaml is one audit.k8s.io/v1 Policy with only the fields the type defines', () => {
    const documents = readYamlDocuments('audit/policy.yaml')
    expect(documents).toHaveLength(1)
    expect(auditPolicy.safeParse(documents[0]).error?.issues ?? []).toEqual([])
  })

  it("webhook-kubeconfig.yaml is one v1 Config that client-go's loader (here @kubernetes/client-node's) resolves to a cluster and a user", () => {
    const documents = readYamlDocuments('audit/webhook-kubeconfig.yaml')
    expect(documents).toHaveLength(1)
    expect(kubeconfig.safeParse(documents[0]).error?.issues ?? []).toEqual([])
    const loaded = new KubeConfig()
    loaded.loadFromString(readFileSync(join(INFRA, 'audit/webhook-kubeconfig.yaml'), 'utf8'))
    expect(loaded.getCurrentCluster()).toMatchObject({ name: 'hapedge', server: expect.stringMatching(/^https:\/\/.+\/audit$/) })
    expect(loaded.getCurrentUser()).toMatchObject({ name: 'hapedge-cluster', token: expect.any(String) })
  })
})
