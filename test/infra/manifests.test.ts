import { describe, expect, it } from 'vitest'
import { HAPROXYCFG } from '../../core/kube/haproxycfg.ts'
import { infraYamlFiles, objectKey, readManifests, readYamlDocuments } from './infra-files.ts'
import { schemaErrors, unknownFields } from './kubernetes-schemas.ts'

/** YAML under infra/ that is not Kubernetes objects, each checked by its own test. */
const NOT_OBJECTS = [
  /^audit\//, // the API server's own files (audit-files.test.ts)
  /^platform\//, // the functions' deployments (aws-template.test.ts)
  /(^|\/)kustomization\.yaml$/, // Kustomize's, checked below
  /^helm\//, // a Helm chart's templates, rendered and checked by helm-chart.test.ts
]

const manifestFiles = infraYamlFiles().filter((path) => !NOT_OBJECTS.some((pattern) => pattern.test(path)))
const manifests = readManifests(manifestFiles)
// Custom resources are checked against the CRD's own schema (haproxycfg-crd.test.ts).
const builtIn = manifests.filter(({ object }) => !object.apiVersion.startsWith(`${HAPROXYCFG.group}/`))

describe('the Kubernetes objects under infra/', () => {
  it('are found: every file the cluster applies, the CRD and the examples', () => {
    expect(manifestFiles).toEqual(expect.arrayContaining(['crd/haproxycfg.yaml', 'cluster/haproxy.yaml', 'cluster/forwarder.yaml', 'examples/cluster.yaml']))
  })

  it('each have an apiVersion, a kind and a name', () => {
    for (const { where, object } of manifests) {
      expect(object, where).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String), metadata: { name: expect.any(String) } })
    }
  })

  it.each(builtIn.map((manifest) => [manifest.where, manifest] as const))('%s passes the Kubernetes schema of its kind', async (_where, { object }) => {
    expect(await schemaErrors(object)).toEqual([])
  })

  it.each(builtIn.map((manifest) => [manifest.where, manifest] as const))('%s has no field its kind does not define', (_where, { object }) => {
    expect(unknownFields(object)).toEqual([])
  })

  it('name each object once', () => {
    const keys = manifests.filter(({ where }) => !where.startsWith('examples/')).map(({ object }) => `${object.apiVersion} ${objectKey(object)}`)
    expect(keys.length).toBe(new Set(keys).size)
  })
})

describe('the checks themselves', () => {
  const pod = (container: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'i', ...container }] },
  })

  it('refuse a wrong type, and a misspelt field that the schemas alone let through', async () => {
    expect(await schemaErrors(pod({ ports: [{ containerPort: '80' }] }))).toEqual(['/spec/containers/0/ports/0/containerPort must be integer'])
    const misspelt = pod({ securityContext: { readOnlyRootFileSystem: true } })
    expect(await schemaErrors(misspelt)).toEqual([])
    expect(unknownFields(misspelt)).toEqual(['.spec.containers[0].securityContext.readOnlyRootFileSystem'])
  })
})

describe('infra/cluster/', () => {
  const clusterFiles = manifestFiles.filter((path) => path.startsWith('cluster/'))
  const objects = readManifests(clusterFiles).map(({ object }) => object)

  it('puts every namespaced object in the hapedge namespace', () => {
    const clusterScoped = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding'])
    for (const object of objects) expect(object.metadata.namespace, objectKey(object)).toBe(clusterScoped.has(object.kind) ? undefined : 'hapedge')
  })

  it('is tied together by kustomization.yaml: every manifest of the folder, nothing else', () => {
    const [kustomization] = readYamlDocuments('cluster/kustomization.yaml') as { apiVersion: string; kind: string; resources: string[] }[]
    expect(kustomization).toMatchObject({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' })
    expect(kustomization!.resources.map((resource) => `cluster/${resource}`).sort()).toEqual(clusterFiles)
  })
})
