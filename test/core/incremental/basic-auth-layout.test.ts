import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { FILES } from '../../../core/render/files.ts'
import { USERLISTS_FILE } from '../../../core/render/render-auth.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { authSecret, ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before basic authentication was honoured, when an Ingress asking for it was refused and its Secret never read. */
const BEFORE_BASIC_AUTH = 6

describe('a snapshot written before basic authentication was honoured', () => {
  it('indexes its Ingresses by their Secret of users, so the Secret the next write brings serves them, byte-equal to a fresh snapshot', () => {
    const office = (annotations: Record<string, string>) =>
      ingress({ name: 'office', annotations, rules: [{ host: 'office.example.com', paths: [{ service: 'app-1' }] }] })
    const guarded = office({ 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users' })
    const users = authSecret('users', { auth: 'alice:$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a\n' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), guarded, users].map(added))

    // The previous version refused the Ingress, as it refuses one asking for a web application firewall, and kept no index of it.
    const refused = new LiveCluster()
    refused.apply([...app(1), office({ 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' })].map(added))
    const old = olderSnapshot(refused, fresh, { layout: BEFORE_BASIC_AUTH, objects: ['Ingress/default/office'] })
    expect(new SnapshotReader(old.snapshot).rejections().map((rejection) => rejection.object)).toEqual(['Ingress default/office'])

    // The forwarder sends the Secret of users at its first resync after the upgrade.
    const next = writeAfterUpgrade(old, refused, fresh, [added(users)])
    expect(next.plan.maps).toContainEqual({ map: FILES.prefixMap, key: 'office.example.com/', value: 'default_app-1_80:default_office' })
    expect(fresh.files().get(USERLISTS_FILE)).toContain('userlist auth_default_users_auth-file')
    expect(new SnapshotReader(next.snapshot).rejections()).toEqual([])
  })
})
