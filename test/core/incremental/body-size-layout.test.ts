import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before body size limits were rendered: proxy-body-size was read, warned "not yet honoured", and its maps did not exist. */
const BEFORE_BODY_SIZES = 12

describe('a snapshot written before body size limits were rendered', () => {
  it('renders its Ingresses’ limits into maps it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const upload = (annotations: Record<string, string>) =>
      ingress({ name: 'upload', annotations, rules: [{ host: 'upload.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), upload({ 'nginx.ingress.kubernetes.io/proxy-body-size': '4k' })].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), upload({})].map(added))

    const old = olderSnapshot(older, fresh, {
      layout: BEFORE_BODY_SIZES,
      objects: ['Ingress/default/upload'],
      missingFiles: [FILES.bodySizeExactMap, FILES.bodySizePrefixMap],
    })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.bodySizePrefixMap)).toBe('upload.example.com/ 4096\n')
    expect(fresh.files().get(FILES.bodySizeExactMap)).toBe('')
  })
})
