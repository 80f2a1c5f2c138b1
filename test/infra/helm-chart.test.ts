import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { agentCommand } from '../../processes/cli/agent-command.ts'
import { parseFlags } from '../../processes/cli/flags.ts'
import { forwardCommand } from '../../processes/cli/forward-command.ts'
import { gcCommand } from '../../processes/cli/gc-command.ts'
import { serveCommand } from '../../processes/cli/serve-command.ts'
import { CHART, ensureChartTools, helmLint, helmTemplate, kustomizeBuild } from './chart-tools.ts'
import { HAPEDGE_IMAGE, packageJson } from './hapedge-image.ts'
import { objectKey, readYamlDocuments, type KubeObject } from './infra-files.ts'
import { schemaErrors, unknownFields } from './kubernetes-schemas.ts'
import { containersOf, environmentOf, expandedArgs, podTemplates, type Container } from './pod-templates.ts'

/** The labels the chart adds to each object's own metadata (not to selectors or pod templates), as charts do. */
const HELM_LABELS = ['helm.sh/chart', 'app.kubernetes.io/managed-by']

/** The object as the Kustomize base writes it: without the chart's own labels. */
function withoutHelmLabels(object: KubeObject): KubeObject {
  const labels = Object.fromEntries(Object.entries(object.metadata.labels ?? {}).filter(([key]) => !HELM_LABELS.includes(key)))
  return { ...object, metadata: { ...object.metadata, labels } }
}

const byKey = (objects: KubeObject[]) => new Map(objects.map((object) => [`${object.apiVersion} ${objectKey(object)}`, object]))

/** Every object passes the schema of its kind and names no field the kind lacks; answers the problems. */
async function schemaProblems(objects: KubeObject[]): Promise<string[]> {
  const problems = await Promise.all(
    objects.map(async (object) => [...(await schemaErrors(object)), ...unknownFields(object)].map((problem) => `${objectKey(object)}: ${problem}`)),
  )
  return problems.flat()
}

const SERVE_ONLY = { 'serve.enabled': 'true', 'forwarder.enabled': 'false', 'haproxy.enabled': 'false', 'functionAccess.enabled': 'false' }
const MINIO = {
  'serve.store': 's3://hapedge/prod',
  'serve.s3.endpoint': 'http://minio.minio:9000',
  'serve.s3.forcePathStyle': 'true',
  'serve.s3.credentialsSecret': 'minio-credentials',
  'serve.replicas': '3',
}

let base: KubeObject[]
beforeAll(() => {
  ensureChartTools()
  base = kustomizeBuild('cluster')
}, 300_000)

// Each render starts helm, a 60 MB binary: seconds on a busy machine.
describe('the Helm chart (infra/helm/hapedge) against the Kustomize base (infra/cluster)', { timeout: 60_000 }, () => {
  it('with the default values renders every object of the base but the Namespace, field for field', async () => {
    const rendered = helmTemplate({ namespace: 'hapedge' })
    expect(await schemaProblems(rendered)).toEqual([])
    expect(await schemaProblems(base)).toEqual([])
    const expected = byKey(base.filter(({ kind }) => kind !== 'Namespace'))
    const got = byKey(rendered.map(withoutHelmLabels))
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [key, object] of expected) expect(got.get(key), key).toEqual(object)
  })

  it('with namespace.create renders the whole base, its Namespace too', () => {
    const rendered = helmTemplate({ namespace: 'hapedge', set: { 'namespace.create': 'true' } }).map(withoutHelmLabels)
    expect(byKey(rendered)).toEqual(byKey(base))
  })

  it('passes helm lint --strict, with serve off and on', () => {
    expect(helmLint()).toContain('0 chart(s) failed')
    expect(helmLint({ ...SERVE_ONLY, ...MINIO })).toContain('0 chart(s) failed')
  })

  it("carries the CRD of infra/crd/ unchanged, and labels each object with the chart's name and version, the package's", () => {
    const rendered = helmTemplate({ namespace: 'hapedge', includeCrds: true })
    const crds = rendered.filter(({ kind }) => kind === 'CustomResourceDefinition')
    expect(crds).toEqual(readYamlDocuments('crd/haproxycfg.yaml'))
    const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { name: string; version: string; appVersion: string }
    expect(chart).toMatchObject({ name: packageJson.name, version: packageJson.version, appVersion: packageJson.version })
    for (const object of rendered.filter(({ kind }) => kind !== 'CustomResourceDefinition'))
      expect(object.metadata.labels, objectKey(object)).toMatchObject({
        'helm.sh/chart': `${chart.name}-${chart.version}`,
        'app.kubernetes.io/managed-by': 'Helm',
      })
  })
})

describe('the Helm chart in another namespace and with other values', { timeout: 60_000 }, () => {
  const namespace = 'edge-system'
  const objects = () => helmTemplate({ namespace, set: { 'connection.cluster': 'staging', settingsConfigMap: 'edge-settings', 'image.tag': 'test' } })

  it("puts every namespaced object in the release's namespace, and points the forwarder's settings and the agent's resource there", async () => {
    const rendered = objects()
    expect(await schemaProblems(rendered)).toEqual([])
    const clusterScoped = new Set(['ClusterRole', 'ClusterRoleBinding'])
    for (const object of rendered) expect(object.metadata.namespace, objectKey(object)).toBe(clusterScoped.has(object.kind) ? undefined : namespace)
    for (const subject of rendered.flatMap(({ subjects }) => subjects ?? [])) expect(subject.namespace).toBe(namespace)
    const containers = podTemplates(rendered).flatMap(({ spec }) => containersOf(spec))
    const flags = (container: Container, table: Parameters<typeof parseFlags>[0]) => {
      const [, ...args] = expandedArgs(container, rendered)
      return parseFlags(table, args, Object.fromEntries(environmentOf(container, rendered))) as Record<string, unknown>
    }
    expect(flags(containers.find(({ name }) => name === 'forwarder')!, forwardCommand.flags)).toMatchObject({
      'config-map': `${namespace}/edge-settings`,
      cluster: 'staging',
    })
    expect(flags(containers.find(({ name }) => name === 'agent')!, agentCommand.flags)).toMatchObject({ 'follow-resource': `${namespace}/staging` })
    for (const container of containers) expect(container.image).toBe(`${HAPEDGE_IMAGE.slice(0, HAPEDGE_IMAGE.lastIndexOf(':'))}:test`)
  })

  it('renders hapedge serve replicas on a MinIO bucket alone, for a management cluster: flags its parser takes, credentials and tokens from Secrets', async () => {
    const rendered = helmTemplate({ namespace, set: { ...SERVE_ONLY, ...MINIO } })
    expect(await schemaProblems(rendered)).toEqual([])
    expect(rendered.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual([
      'CronJob/hapedge-gc',
      'Deployment/hapedge-serve',
      'PodDisruptionBudget/hapedge-serve',
      'Service/hapedge-serve',
      'ServiceAccount/hapedge-serve',
    ])
    const [{ workload, spec, labels }] = podTemplates(rendered) as [ReturnType<typeof podTemplates>[number]]
    expect(workload.spec.replicas).toBe(3)
    const [serve] = spec.containers as [Container]
    expect(serve.command).toEqual(['hapedge'])
    const [name, ...args] = expandedArgs(serve, rendered)
    expect(name).toBe('serve')
    const flags = parseFlags(serveCommand.flags, args, Object.fromEntries(environmentOf(serve, rendered)))
    expect(flags).toMatchObject({ store: 's3://hapedge/prod', 's3-endpoint': 'http://minio.minio:9000', 's3-force-path-style': true, host: '0.0.0.0' })
    expect(serve.ports).toEqual([{ name: 'http', containerPort: Number(flags.port) }])
    const fromSecret = (variable: string) => serve.env?.find(({ name }) => name === variable)?.valueFrom?.secretKeyRef
    expect(fromSecret('AWS_ACCESS_KEY_ID')).toEqual({ name: 'minio-credentials', key: 'AWS_ACCESS_KEY_ID' })
    expect(fromSecret('AWS_SECRET_ACCESS_KEY')).toEqual({ name: 'minio-credentials', key: 'AWS_SECRET_ACCESS_KEY' })
    expect(fromSecret('HAPEDGE_ADMIN_TOKEN')).toEqual({ name: 'hapedge-serve', key: 'HAPEDGE_ADMIN_TOKEN' })
    expect(fromSecret('HAPEDGE_SECRET')).toEqual({ name: 'hapedge-serve', key: 'HAPEDGE_SECRET' })
    expect(serve.env?.find(({ name }) => name === 'AWS_REGION')?.value).toBeTruthy()
    // hapedge gc, on a schedule, on the same bucket with the same settings and secret, and no admin token.
    const cronJob = rendered.find(({ kind }) => kind === 'CronJob')!
    const [gc] = cronJob.spec.jobTemplate.spec.template.spec.containers as [Container]
    const [gcName, ...gcArgs] = expandedArgs(gc, rendered)
    expect(gcName).toBe('gc')
    const gcFlags = parseFlags(gcCommand.flags, gcArgs, Object.fromEntries(environmentOf(gc, rendered)))
    for (const flag of ['store', 's3-endpoint', 's3-force-path-style'] as const) expect(gcFlags[flag], flag).toEqual(flags[flag])
    expect(gc.env).toEqual(serve.env?.filter(({ name }) => name !== 'HAPEDGE_ADMIN_TOKEN'))
    expect(cronJob.spec.jobTemplate.spec.template.spec.securityContext).toEqual(podTemplates(rendered)[0]!.spec.securityContext)
    const service = rendered.find(({ kind }) => kind === 'Service')!
    expect(Object.entries(service.spec.selector).every(([key, value]) => labels[key] === value)).toBe(true)
    expect(service.spec.ports.map(({ targetPort }: { targetPort: string }) => targetPort)).toEqual(['http'])
  })

  it('renders serve on AWS S3 with credentials from a role: no endpoint, no path style, no key from a Secret', () => {
    const rendered = helmTemplate({
      namespace,
      set: { ...SERVE_ONLY, 'serve.serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn': 'arn:aws:iam::123456789012:role/hapedge' },
    })
    const [serve] = podTemplates(rendered)[0]!.spec.containers as [Container]
    const flags = parseFlags(serveCommand.flags, expandedArgs(serve, rendered).slice(1), {})
    expect(flags['s3-endpoint']).toBeUndefined()
    expect(flags['s3-force-path-style']).toBe(false)
    expect(serve.env?.map(({ name }) => name)).not.toContain('AWS_ACCESS_KEY_ID')
    const account = rendered.find(({ kind }) => kind === 'ServiceAccount')!
    expect(account.metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/hapedge' })
  })
})
