import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before redirects and HSTS were rendered: their annotations were read, warned "not yet honoured", and their maps did not exist. */
const BEFORE_REDIRECTS = 5
const NEW_MAPS = [FILES.hstsMap, FILES.appRootMap, FILES.wwwMap, FILES.locationExactMap, FILES.locationPrefixMap]

describe('a snapshot written before redirects and HSTS were rendered', () => {
  it('renders its Ingresses’ redirects into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const moved = (annotations: Record<string, string>) =>
      ingress({ name: 'moved', annotations, rules: [{ host: 'moved.example.com', paths: [{ service: 'app-1' }] }] })
    const redirecting = moved({ 'nginx.ingress.kubernetes.io/permanent-redirect': 'https://example.com/', 'hapedge.io/app-root': '/app' })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), redirecting].map(added))

    // The previous version served the Ingress without its redirect, and its generation had none of the new maps.
    const older = new LiveCluster()
    older.apply([...app(1), moved({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_REDIRECTS, objects: ['Ingress/default/moved'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.locationPrefixMap)).toBe('moved.example.com/ 301|https://example.com/\n')
    expect(fresh.files().get(FILES.wwwMap)).toBe('')
  })
})
