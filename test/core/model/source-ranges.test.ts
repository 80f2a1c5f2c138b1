import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { aclChanges } from '../../../core/plan/acl-updates.ts'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import { generationRecord } from '../../../core/reading/head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { FILES } from '../../../core/render/files.ts'
import { aclFile, TRUSTED_PROXIES_FILE } from '../../../core/render/render-access.ts'
import { configMap, ingress } from '../../support/objects.ts'

/**
 * Source ranges in the model and the files: a group per Ingress, named in its routes' map values
 * and in the frontend's rules, its lists in ACL files that a changed list edits at runtime.
 */

const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })
const office = (annotations: Record<string, string> | undefined) =>
  ingress({ name: 'office', annotations, rules: [{ host: 'office.example.com', paths: [{ path: '/internal', pathType: 'Prefix', service: 'web' }] }] })

describe('source ranges', () => {
  it("names the Ingress's group in its routes' map values, renders its rules and its four ACL files", () => {
    const { files, model } = fullRebuild([office({ 'haproxy-ingress.github.io/allowlist-source-range': '10.0.0.0/8,!10.1.0.0/16, fd00::/8' })])
    expect(model.rejections).toEqual([])
    expect(files.get(FILES.exactMap)).toBe('office.example.com/internal default_web_80:default_office\n')
    expect(files.get(FILES.prefixMap)).toBe('office.example.com/internal/ default_web_80:default_office\n')
    expect(files.get(aclFile('default_office', 'allow'))).toBe('10.0.0.0/8\nfd00::/8\n')
    expect(files.get(aclFile('default_office', 'allow-except'))).toBe('10.1.0.0/16\n')
    expect(files.get(aclFile('default_office', 'deny'))).toBe('')
    expect(files.get(aclFile('default_office', 'deny-except'))).toBe('')
    const frontend = files.get(FILES.frontend)!
    expect(frontend).toContain('http-request deny deny_status 403 if { var(txn.access) -m str default_office } !{ src -f acls/default_office.allow.acl }')
    expect(frontend).not.toContain('set-src')
  })

  it("names the catch-all Ingress's group in the default map, and its backend alone without a list", () => {
    const catchAll = (annotations: Record<string, string> | undefined) => ingress({ name: 'catch-all', annotations, defaultBackend: { service: 'web' } })
    expect(fullRebuild([catchAll({ 'hapedge.io/denylist-source-range': '192.0.2.0/24' })]).files.get(FILES.defaultMap)).toBe(
      'default default_web_80:default_catch-all\n',
    )
    const cluster = new LiveCluster()
    cluster.apply([catchAll({ 'hapedge.io/denylist-source-range': '192.0.2.0/24' })].map(added))
    const open = cluster.apply([modified(catchAll(undefined))])
    expect(open.plan.maps).toContainEqual({ map: FILES.defaultMap, key: 'default', value: 'default_web_80' })
    expect(cluster.files().get(FILES.defaultMap)).toBe('default default_web_80\n')
  })

  it('allows every address where only a deny-list is given', () => {
    const { files } = fullRebuild([office({ 'nginx.ingress.kubernetes.io/denylist-source-range': '192.0.2.0/24' })])
    expect(files.get(aclFile('default_office', 'allow'))).toBe('0.0.0.0/0\n::/0\n')
    expect(files.get(aclFile('default_office', 'deny'))).toBe('192.0.2.0/24\n')
  })

  it('renders no access rules, no ACL files and plain map values for a cluster without lists', () => {
    const { files } = fullRebuild([office(undefined)])
    expect([...files.keys()].filter((path) => path.startsWith('acls/'))).toEqual([])
    expect(files.get(FILES.frontend)).not.toContain('txn.access')
    expect(files.get(FILES.exactMap)).toBe('office.example.com/internal default_web_80\n')
  })

  it('believes X-Forwarded-For only from the proxies of proxy-real-ip-cidr, and only with use-forwarded-headers', () => {
    const frontend = (data: Record<string, string>) => fullRebuild([office(undefined), configMap(data)]).files
    const trusted = frontend({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '10.0.0.0/8, fd00::/8' })
    expect(trusted.get(FILES.frontend)).toContain(`http-request set-src hdr_ip(x-forwarded-for,-1) if { src -f ${TRUSTED_PROXIES_FILE} }`)
    expect(trusted.get(TRUSTED_PROXIES_FILE)).toBe('10.0.0.0/8\nfd00::/8\n')
    for (const [data, key] of [
      [{ 'proxy-real-ip-cidr': '10.0.0.0/8' }, 'proxy-real-ip-cidr'],
      [{ 'use-forwarded-headers': 'true' }, 'use-forwarded-headers'],
    ] as [Record<string, string>, string][]) {
      const { files, model } = fullRebuild([office(undefined), configMap(data)])
      expect(files.get(FILES.frontend)).not.toContain('set-src')
      expect(files.has(TRUSTED_PROXIES_FILE)).toBe(false)
      // Never silent: the setting that does nothing alone is reported.
      expect(model.rejections).toEqual([
        { object: 'ConfigMap hapedge/hapedge', reason: expect.stringMatching(new RegExp(`^data\\["${key}"\\]: .*stays ignored`)) },
      ])
    }
    const unreadable = fullRebuild([configMap({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': 'the-lb' })])
    expect(unreadable.model.rejections).toContainEqual({ object: 'ConfigMap hapedge/hapedge', reason: expect.stringContaining('data["proxy-real-ip-cidr"]') })
    expect(unreadable.files.get(FILES.frontend)).not.toContain('set-src')
  })

  it('changes a list at runtime, entries added before any is deleted, and reloads when a list appears or goes, saying why', () => {
    const cluster = new LiveCluster()
    cluster.apply([office({ 'hapedge.io/allowlist-source-range': '10.0.0.0/8' })].map(added))
    const before = cluster.files()
    const changed = cluster.apply([modified(office({ 'hapedge.io/allowlist-source-range': '192.168.0.0/16,10.0.0.0/8,172.16.0.0/12' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [], maps: [] })
    const allow = aclFile('default_office', 'allow')
    expect(changed.plan.acls).toEqual([
      { acl: allow, op: 'add', pattern: '192.168.0.0/16' },
      { acl: allow, op: 'add', pattern: '172.16.0.0/12' },
    ])
    expect(planFromFiles(before, cluster.files())).toMatchObject({ reload: false, acls: changed.plan.acls })
    // The generation's record keeps them, for agents that skipped generations and for the history.
    expect(generationRecord.shape.plan.parse(changed.plan).acls).toEqual(changed.plan.acls)
    const narrowed = cluster.apply([modified(office({ 'hapedge.io/allowlist-source-range': '172.16.0.0/12', 'haproxy.org/deny-list': '172.16.1.1' }))])
    expect(narrowed.plan.reload).toBe(false)
    expect(narrowed.plan.acls?.map(({ op, pattern }) => `${op} ${pattern}`)).toEqual(['add 172.16.1.1', 'del 192.168.0.0/16', 'del 10.0.0.0/8'])

    const open = cluster.apply([modified(office(undefined))])
    expect(open.plan.reasons).toContain('Ingress default/office lost its source ranges: the frontend drops their rules')
    expect(open.plan.maps).toContainEqual({ map: FILES.exactMap, key: 'office.example.com/internal', value: 'default_web_80' })
    expect([...cluster.files().keys()].filter((path) => path.startsWith('acls/'))).toEqual([])
  })

  it('compares ACL files as sets of patterns', () => {
    expect(aclChanges('a.acl', '10.0.0.0/8\n::1\n', '::1\n10.0.0.0/8\n')).toEqual([])
    expect(aclChanges('a.acl', '', '10.0.0.1\n')).toEqual([{ acl: 'a.acl', op: 'add', pattern: '10.0.0.1' }])
  })
})
