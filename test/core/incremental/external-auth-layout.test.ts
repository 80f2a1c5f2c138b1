import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { EXTERNAL_AUTH_LUA_FILE } from '../../../core/render/render-external-auth.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before external authentication was honoured: auth-url refused its Ingress, and its maps and Lua did not exist. */
const BEFORE_EXTERNAL_AUTH = 19
const NEW_FILES = [FILES.externalAuthExactMap, FILES.externalAuthPrefixMap, EXTERNAL_AUTH_LUA_FILE]

describe('a snapshot written before external authentication was honoured', () => {
  it('serves its Ingresses’ auth-url through maps and a script it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const guarded = (annotations: Record<string, string>) =>
      ingress({ name: 'guarded', annotations, rules: [{ host: 'guarded.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), guarded({ 'nginx.ingress.kubernetes.io/auth-url': 'http://auth.example.com/verify' })].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), guarded({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_EXTERNAL_AUTH, objects: ['Ingress/default/guarded'], missingFiles: NEW_FILES })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.externalAuthPrefixMap)).toBe('guarded.example.com/ GET|http://auth.example.com/verify|-|-|-\n')
  })
})
