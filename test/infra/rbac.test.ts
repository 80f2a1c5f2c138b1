import { describe, expect, it } from 'vitest'
import { AUDITED_RESOURCES } from '../../core/ingest/audited-resources.ts'
import { HAPROXYCFG } from '../../core/kube/haproxycfg.ts'
import { infraYamlFiles, objectKey, readManifests, type KubeObject } from './infra-files.ts'

const objects = readManifests(infraYamlFiles().filter((path) => path.startsWith('cluster/'))).map(({ object }) => object)
const find = (kind: string, name: string, namespace?: string) =>
  objects.find((object) => object.kind === kind && object.metadata.name === name && object.metadata.namespace === namespace)

interface PolicyRule {
  apiGroups?: string[]
  resources?: string[]
  verbs: string[]
  resourceNames?: string[]
  nonResourceURLs?: string[]
}

/** A role's rules as one sorted line per group and resource: `networking.k8s.io/ingresses: get list watch`. */
function grants(role: KubeObject | undefined): string[] {
  const rules: PolicyRule[] = role?.rules ?? []
  return rules
    .flatMap(({ apiGroups = [], resources = [], verbs }) =>
      apiGroups.flatMap((group) => resources.map((resource) => `${group}/${resource}: ${[...verbs].sort().join(' ')}`)),
    )
    .sort()
}

const read = 'get list watch'
const { group: hapedge, plural: haproxycfgs } = HAPROXYCFG

describe('RBAC under infra/cluster/: least privilege, rule by rule', () => {
  it('the forwarder reads, cluster-wide, the kinds hapedge renders from, and writes none of them', () => {
    expect(grants(find('ClusterRole', 'hapedge-forwarder'))).toEqual(
      [
        'discovery.k8s.io/endpointslices',
        'networking.k8s.io/ingressclasses',
        'networking.k8s.io/ingresses',
        '/configmaps',
        '/secrets',
        '/services',
        '/namespaces',
        ...['gatewayclasses', 'gateways', 'httproutes', 'grpcroutes', 'referencegrants'].map((resource) => `gateway.networking.k8s.io/${resource}`),
      ]
        .map((resource) => `${resource}: ${read}`)
        .sort(),
    )
  })

  it('the forwarder has no role of its own namespace: the settings ConfigMap is one of the ConfigMaps it reads cluster-wide, as custom-headers names them in any namespace', () => {
    expect(find('Role', 'hapedge-forwarder', 'hapedge')).toBeUndefined()
  })

  it("the forwarder's role reads exactly the resources the audit policy sends", () => {
    const readable = grants(find('ClusterRole', 'hapedge-forwarder'))
      .filter((grant) => grant.endsWith(`: ${read}`))
      .map((grant) => grant.slice(0, -`: ${read}`.length))
    expect(readable.sort()).toEqual(AUDITED_RESOURCES.map(({ group, resource }) => `${group}/${resource}`).sort())
  })

  it('the agent watches HAProxyCfg resources in its namespace, and nothing else', () => {
    expect(grants(find('Role', 'hapedge-agent', 'hapedge'))).toEqual([`${hapedge}/${haproxycfgs}: ${read}`])
  })

  it('the function creates the HAProxyCfg resource and patches its status in hapedge, and records core Events anywhere', () => {
    // functions/adapters/kubernetes/haproxycfg-client.ts: get, create, patch of /status; rejection-events.ts: create, and read then patch on a repeat.
    expect(grants(find('Role', 'hapedge-function', 'hapedge'))).toEqual([`${hapedge}/${haproxycfgs}/status: patch`, `${hapedge}/${haproxycfgs}: create get`])
    expect(grants(find('ClusterRole', 'hapedge-function-events'))).toEqual(['/events: create get patch'])
  })

  it("the function reads the Gateway API's GatewayClasses, Gateways and routes one by one and patches only their status", () => {
    // functions/adapters/kubernetes/gateway-status-writer.ts: get, then a merge patch of /status.
    const kinds = ['gatewayclasses', 'gateways', 'httproutes', 'grpcroutes']
    expect(grants(find('ClusterRole', 'hapedge-function-gateway-status'))).toEqual(
      [...kinds.map((kind) => `gateway.networking.k8s.io/${kind}: get`), ...kinds.map((kind) => `gateway.networking.k8s.io/${kind}/status: patch`)].sort(),
    )
  })

  it('no rule uses a wildcard or a non-resource URL, and no role exists beyond those above', () => {
    const roles = objects.filter(({ kind }) => kind === 'Role' || kind === 'ClusterRole')
    expect(roles.map(objectKey).sort()).toEqual([
      'ClusterRole/hapedge-forwarder',
      'ClusterRole/hapedge-function-events',
      'ClusterRole/hapedge-function-gateway-status',
      'Role/hapedge/hapedge-agent',
      'Role/hapedge/hapedge-function',
    ])
    for (const rule of roles.flatMap((role) => role.rules as PolicyRule[])) {
      expect([...(rule.apiGroups ?? []), ...(rule.resources ?? []), ...(rule.resourceNames ?? []), ...rule.verbs]).not.toContain('*')
      expect(rule).not.toHaveProperty('nonResourceURLs')
    }
  })

  it('every binding names a role and ServiceAccounts that exist, each role bound to its own ServiceAccount only', () => {
    const bindings = objects.filter(({ kind }) => kind === 'RoleBinding' || kind === 'ClusterRoleBinding')
    // One binding per role.
    expect(bindings).toHaveLength(objects.filter(({ kind }) => kind === 'Role' || kind === 'ClusterRole').length)
    for (const binding of bindings) {
      const { roleRef, subjects } = binding as KubeObject & {
        roleRef: { kind: string; name: string }
        subjects: { kind: string; name: string; namespace: string }[]
      }
      const roleNamespace = roleRef.kind === 'Role' ? binding.metadata.namespace : undefined
      expect(find(roleRef.kind, roleRef.name, roleNamespace), `${objectKey(binding)} → ${roleRef.kind}/${roleRef.name}`).toBeDefined()
      expect(subjects).toHaveLength(1)
      expect(find('ServiceAccount', subjects[0]!.name, subjects[0]!.namespace), objectKey(binding)).toBeDefined()
      expect(roleRef.name.startsWith(subjects[0]!.name), objectKey(binding)).toBe(true)
    }
  })

  it("the function's token Secret belongs to its ServiceAccount, which no pod mounts", () => {
    const secret = find('Secret', 'hapedge-function-token', 'hapedge')
    expect(secret).toMatchObject({
      type: 'kubernetes.io/service-account-token',
      metadata: { annotations: { 'kubernetes.io/service-account.name': 'hapedge-function' } },
    })
    expect(find('ServiceAccount', 'hapedge-function', 'hapedge')).toMatchObject({ automountServiceAccountToken: false })
  })
})
