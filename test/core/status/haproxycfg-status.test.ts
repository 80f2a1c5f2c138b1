import { describe, expect, it } from 'vitest'
import { sha256Text } from '../../../core/hash.ts'
import { STATUS_LIMITS } from '../../../core/kube/haproxycfg.ts'
import { haproxyCfgStatus } from '../../../core/status/haproxycfg-status.ts'
import { rejectionEvent, warningReports } from '../../../core/status/rejection-event.ts'
import { carryConditions } from '../../../core/status/status-conditions.ts'
import { pointerOf } from '../../../core/status/status-pointer.ts'
import { statusFacts } from '../../support/status-facts.ts'

const byType = (status: ReturnType<typeof haproxyCfgStatus>) => Object.fromEntries(status.conditions.map((condition) => [condition.type, condition]))

describe('haproxyCfgStatus', () => {
  it('names the generation, its manifest and every file with sha256 and size, from the manifest alone', () => {
    const facts = statusFacts()
    const status = haproxyCfgStatus(facts)
    expect(status).toMatchObject({
      generation: 7,
      manifest: facts.manifest,
      shortManifest: facts.manifest.slice(0, 12),
      reload: true,
      fileCount: facts.files.length,
    })
    expect(status.files.map((file) => file.path)).toEqual([...status.files.map((file) => file.path)].sort())
    expect(status.totalBytes).toBe(facts.files.reduce((sum, file) => sum + file.size, 0))
    const global = status.files.find((file) => file.path === '00-global.cfg')!
    expect(global.chunked).toBe(false)
    expect(status.files.find((file) => file.path === 'maps/hosts.map')!.chunked).toBe(true)
  })

  it('says Degraded for rejections and agent errors, and not Converged while a pod runs an older generation', () => {
    const conditions = byType(haproxyCfgStatus(statusFacts()))
    expect(conditions.Committed).toMatchObject({ status: 'True', reason: 'Committed' })
    expect(conditions.Converged).toMatchObject({ status: 'False', reason: 'PodsBehind' })
    expect(conditions.Converged!.message).toContain('haproxy-1 (6)')
    expect(conditions.Degraded).toMatchObject({ status: 'True', reason: 'RejectedAndAgentErrors' })
  })

  it('is Converged when every pod runs the generation, Unknown before any reports, and not Degraded when all is served', () => {
    const facts = statusFacts()
    const current = facts.pods.map((pod) => ({ ...pod, generation: facts.generation, manifest: facts.manifest, lastError: null }))
    expect(byType(haproxyCfgStatus({ ...facts, pods: current, rejected: [] }))).toMatchObject({
      Converged: { status: 'True', reason: 'AllPodsCurrent' },
      Degraded: { status: 'False', reason: 'AsExpected' },
    })
    expect(byType(haproxyCfgStatus({ ...facts, pods: [] })).Converged).toMatchObject({ status: 'Unknown', reason: 'NoAgentReports' })
  })

  it("is Converged when a pod runs an earlier generation whose manifest is this one's (a generation that changed no file)", () => {
    const facts = statusFacts()
    const earlier = facts.pods.map((pod) => ({ ...pod, generation: facts.generation - 1, manifest: facts.manifest }))
    expect(byType(haproxyCfgStatus({ ...facts, pods: earlier })).Converged).toMatchObject({ status: 'True', reason: 'AllPodsCurrent' })
    const unsaid = facts.pods.map((pod) => ({ ...pod, generation: facts.generation - 1, manifest: null }))
    expect(byType(haproxyCfgStatus({ ...facts, pods: unsaid })).Converged).toMatchObject({ status: 'False', reason: 'PodsBehind' })
  })

  it('counts the Ingresses their class leaves unserved and says so, instead of "every object is served", without calling that Degraded', () => {
    const facts = statusFacts()
    const quiet = { ...facts, rejected: [], pods: facts.pods.map((pod) => ({ ...pod, lastError: null })) }
    expect(byType(haproxyCfgStatus(quiet)).Degraded!.message).toBe('every object is served and no agent reports an error')

    const ignored = { otherClass: 3, noDefaultClass: 2 }
    const status = haproxyCfgStatus({ ...quiet, ignored })
    expect(status.ignored).toEqual(ignored)
    expect(byType(status).Degraded).toMatchObject({ status: 'False', reason: 'AsExpected' })
    expect(byType(status).Degraded!.message).toBe(
      "every object of this cluster's class is served and no agent reports an error; 3 Ingress(es) of other classes and 2 Ingress(es) without a class (this cluster's class is not the default IngressClass) are ignored (status.ignored)",
    )
    expect(byType(haproxyCfgStatus({ ...facts, ignored })).Degraded!.message).toMatch(
      /^\d+ object\(s\) are not served .*; 3 Ingress\(es\) of other classes and 2 .* are ignored \(status.ignored\)$/,
    )
    expect(haproxyCfgStatus({ ...quiet, ignored: null })).not.toHaveProperty('ignored')
  })

  it('keeps the first rejections and counts them all, and leaves out what an agent has not reported', () => {
    const facts = statusFacts()
    const rejected = Array.from({ length: STATUS_LIMITS.rejected + 5 }, (_, i) => ({ object: `Ingress apps/x-${i}`, reason: 'bad' }))
    const status = haproxyCfgStatus({
      ...facts,
      rejected,
      pods: [{ pod: 'fresh', generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }],
    })
    expect(status.rejected).toHaveLength(STATUS_LIMITS.rejected)
    expect(status.rejectedCount).toBe(STATUS_LIMITS.rejected + 5)
    expect(status.pods).toEqual([{ pod: 'fresh' }])
  })

  it("lists the cluster's annotation warnings: the first ones, with their count", () => {
    const facts = statusFacts()
    expect(haproxyCfgStatus(facts).warnings).toEqual([
      { object: 'Ingress apps/annotated', annotation: 'nginx.ingress.kubernetes.io/proxy-buffering', reason: 'not supported by hapedge' },
    ])
    const warnings = Array.from({ length: STATUS_LIMITS.warnings + 5 }, (_, i) => ({ object: `Ingress apps/x-${i}`, annotation: 'a.io/b', reason: 'r' }))
    const status = haproxyCfgStatus({ ...facts, rejected: [], warnings })
    expect(status.warnings).toEqual(warnings.slice(0, STATUS_LIMITS.warnings))
    expect(status.warningCount).toBe(STATUS_LIMITS.warnings + 5)
  })

  it('says Pinned while a rollback holds the cluster, with the generation and the changes held', () => {
    expect(byType(haproxyCfgStatus(statusFacts())).Pinned).toMatchObject({ status: 'False', reason: 'Following' })
    const pinned = byType(haproxyCfgStatus({ ...statusFacts(), pinned: { generation: 3, since: '2026-12-03T10:00:00.000Z', held: 2 } })).Pinned!
    expect(pinned).toMatchObject({ status: 'True', reason: 'RolledBack' })
    expect(pinned.message).toMatch(/generation 3 .* 2 change\(s\)/)
  })
})

describe('carryConditions', () => {
  it('keeps a transition time while the condition holds, takes the new one when it changes, and names the resource generation', () => {
    const facts = statusFacts()
    const earlier = carryConditions(haproxyCfgStatus({ ...facts, committedAt: '2025-01-01T00:00:00.000Z' }), undefined, 1)
    const next = haproxyCfgStatus({ ...facts, generation: 8, rejected: [], pods: [] })
    const carried = byType(carryConditions(next, earlier.conditions, 4))
    expect(carried.Committed).toMatchObject({ lastTransitionTime: '2025-01-01T00:00:00.000Z', observedGeneration: 4 })
    expect(carried.Converged).toMatchObject({ status: 'Unknown', lastTransitionTime: facts.committedAt })
  })
})

describe('rejectionEvent', () => {
  const at = '2025-06-01T12:00:00.000Z'

  it('is a Warning about the Ingress, named after it with a suffix that is the same for the same rejection only', () => {
    const event = rejectionEvent({ object: 'Ingress shop/web', reason: 'spec.rules[0].host: bad' }, at, 'prod', sha256Text)!
    expect(event).toMatchObject({
      metadata: { namespace: 'shop' },
      involvedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', namespace: 'shop', name: 'web' },
      type: 'Warning',
      reason: 'Rejected',
      message: 'spec.rules[0].host: bad',
      count: 1,
    })
    expect(event.metadata.name).toMatch(/^web\.[0-9a-f]{16}$/)
    expect(rejectionEvent({ object: 'Ingress shop/web', reason: 'spec.rules[0].host: bad' }, at, 'prod', sha256Text)!.metadata.name).toBe(event.metadata.name)
    expect(rejectionEvent({ object: 'Ingress shop/web', reason: 'another' }, at, 'prod', sha256Text)!.metadata.name).not.toBe(event.metadata.name)
  })

  it('gives a warned Ingress one Event, AnnotationsNotHonoured, naming each annotation and why', () => {
    const reports = warningReports([
      { object: 'Ingress shop/web', annotation: 'nginx.ingress.kubernetes.io/proxy-buffering', reason: 'not supported by hapedge' },
      { object: 'Ingress shop/web', annotation: 'hapedge.io/x', reason: 'not a hapedge annotation' },
      { object: 'Ingress shop/api', annotation: 'nginx.ingress.kubernetes.io/enable-cors', reason: 'not yet honoured by hapedge' },
    ])
    expect(reports.map((report) => report.object)).toEqual(['Ingress shop/web', 'Ingress shop/api'])
    const event = rejectionEvent(reports[0]!, at, 'prod', sha256Text, 'AnnotationsNotHonoured')!
    expect(event).toMatchObject({ type: 'Warning', reason: 'AnnotationsNotHonoured', involvedObject: { kind: 'Ingress', namespace: 'shop', name: 'web' } })
    expect(event.message).toContain('nginx.ingress.kubernetes.io/proxy-buffering: not supported by hapedge')
    expect(event.message).toContain('hapedge.io/x: not a hapedge annotation')
  })

  it('has none for a cluster-scoped object or a name that is not an object name', () => {
    expect(rejectionEvent({ object: 'IngressClass hapedge', reason: 'x' }, at, 'prod', sha256Text)).toBeUndefined()
    expect(rejectionEvent({ object: 'Ingress "a b"/c', reason: 'x' }, at, 'prod', sha256Text)).toBeUndefined()
  })

  it('keeps a long name within 253 characters and a valid DNS subdomain', () => {
    const name = `${'a'.repeat(235)}-b`
    const event = rejectionEvent({ object: `Ingress shop/${name}`, reason: 'x' }, at, 'prod', sha256Text)!
    expect(event.metadata.name.length).toBeLessThanOrEqual(253)
    expect(event.metadata.name).toMatch(/^a+\.[0-9a-f]{16}$/)
  })
})

describe('pointerOf', () => {
  it('reads generation and manifest from a resource, and nothing from one without a valid status', () => {
    const manifest = sha256Text('m')
    expect(pointerOf({ status: { generation: 3, manifest, files: [] } })).toEqual({ generation: 3, manifest })
    expect(pointerOf({ spec: {} })).toBeUndefined()
    expect(pointerOf({ status: { generation: 3, manifest: 'short' } })).toBeUndefined()
  })
})
