import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { HAPROXYCFG, HAPROXYCFG_API_VERSION } from '../../core/kube/haproxycfg.ts'
import { STATUS_LIMITS } from '../../core/kube/haproxycfg.ts'
import { haproxyCfgStatus } from '../../core/status/haproxycfg-status.ts'
import { carryConditions } from '../../core/status/status-conditions.ts'
import { crdValidator, schemaAt, unstructuredNodes } from '../support/crd-schema.ts'
import { statusFacts } from '../support/status-facts.ts'

const read = (path: string) => parse(readFileSync(fileURLToPath(new URL(`../../infra/${path}`, import.meta.url)), 'utf8'))

const crd = read('crd/haproxycfg.yaml')
const version = crd.spec.versions[0]
const schema = version.schema.openAPIV3Schema
const resource = (status: unknown) => ({
  apiVersion: HAPROXYCFG_API_VERSION,
  kind: HAPROXYCFG.kind,
  metadata: { name: 'prod', namespace: 'hapedge' },
  spec: { cluster: 'prod-eu' },
  status,
})
const builtStatus = () => carryConditions(haproxyCfgStatus(statusFacts()), undefined, 1)

describe('infra/crd/haproxycfg.yaml', () => {
  it('is a valid apiextensions.k8s.io/v1 CustomResourceDefinition for the group, kind and plural the code uses', () => {
    expect(() => new CustomResourceDefinition(crd).validate()).not.toThrow()
    expect(crd.metadata.name).toBe(`${HAPROXYCFG.plural}.${HAPROXYCFG.group}`)
    expect(crd.spec).toMatchObject({ group: HAPROXYCFG.group, scope: 'Namespaced', names: { kind: HAPROXYCFG.kind, plural: HAPROXYCFG.plural } })
    expect(crd.spec.versions).toHaveLength(1)
    expect(version).toMatchObject({ name: HAPROXYCFG.version, served: true, storage: true, subresources: { status: {} } })
  })

  it('has a structural schema (every node says its type) whose printer columns name fields it defines', () => {
    expect(unstructuredNodes(schema)).toEqual([])
    const columns = version.additionalPrinterColumns.map((column: { name: string }) => column.name)
    expect(columns).toEqual(['Generation', 'Manifest', 'Reload', 'Rejected', 'Converged', 'Age'])
    const ownColumns = version.additionalPrinterColumns.filter((column: { jsonPath: string }) => !column.jsonPath.startsWith('.metadata.'))
    for (const column of ownColumns) expect(schemaAt(schema, column.jsonPath), column.jsonPath).toBeDefined()
  })

  it('bounds every list that grows with the cluster as the builder does', () => {
    const status = schema.properties.status.properties
    expect(status.files.maxItems).toBe(STATUS_LIMITS.files)
    expect(status.rejected.maxItems).toBe(STATUS_LIMITS.rejected)
    expect(status.warnings.maxItems).toBe(STATUS_LIMITS.warnings)
    expect(status.pods.maxItems).toBe(STATUS_LIMITS.pods)
    expect(status.reloadReasons.maxItems).toBe(STATUS_LIMITS.reloadReasons)
  })
})

describe('HAProxyCfg objects against the CRD schema', () => {
  const validate = crdValidator(schema)
  const validateClosed = crdValidator(schema, { closed: true })

  it('accepts the sample in infra/examples, naming no field the API server would prune', () => {
    const sample = read('examples/haproxycfg.yaml')
    expect(sample).toMatchObject({ apiVersion: HAPROXYCFG_API_VERSION, kind: HAPROXYCFG.kind })
    expect(validateClosed(sample)).toEqual([])
  })

  it("accepts the builder's status for a real generation (chunked maps, rejections, a pod behind with an error), with no field the API server would prune", () => {
    const status = builtStatus()
    expect(status.files.some((file) => file.chunked)).toBe(true)
    expect(status.rejectedCount).toBeGreaterThan(0)
    expect(status.warningCount).toBeGreaterThan(0)
    expect(validateClosed(resource(status))).toEqual([])
  })

  it('accepts the builder at its bounds: more rejections and pods than the status keeps, and errors longer than it keeps', () => {
    const facts = statusFacts()
    const rejected = Array.from({ length: 250 }, (_, i) => ({ object: `Ingress apps/broken-${i}`, reason: 'x'.repeat(5000) }))
    const pods = Array.from({ length: 300 }, (_, i) => ({
      pod: `haproxy-${i}`,
      generation: 7,
      manifest: facts.manifest,
      applied: 'runtime' as const,
      appliedAt: facts.committedAt,
      lastError: 'e'.repeat(5000),
    }))
    const status = carryConditions(haproxyCfgStatus({ ...facts, rejected, pods }), undefined, 1)
    expect(status.rejectedCount).toBe(250)
    expect(validateClosed(resource(status))).toEqual([])
    expect(JSON.stringify(status).length).toBeLessThan(1024 * 1024)
  })

  it('refuses a status missing a required field, naming where', () => {
    const { manifest: _, ...status } = builtStatus()
    expect(validate(resource(status))).toContain("/status/manifest must have required property 'manifest'")
  })

  it('refuses (when closed) a field the schema does not name, which the API server would prune', () => {
    expect(validateClosed(resource({ ...builtStatus(), observed: 3 }))).toContain('/status must NOT have additional properties')
  })

  it('refuses a malformed pod entry and condition, naming where', () => {
    const status = builtStatus()
    const broken = { ...status, pods: [{ ...status.pods[0], generation: 0 }], conditions: [{ ...status.conditions[0], status: 'Maybe' }] }
    const errors = validate(resource(broken))
    expect(errors).toContain('/status/pods/0/generation must be >= 1')
    expect(errors).toContain('/status/conditions/0/status must be equal to one of the allowed values')
  })
})
