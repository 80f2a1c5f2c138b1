import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before request and response headers were rendered: their annotations were warned "not yet honoured", their maps and the header-rules table did not exist. */
const BEFORE_HEADERS = 11
const NEW_MAPS = [FILES.headersExactMap, FILES.headersPrefixMap, FILES.headerValuesMap]

describe('a snapshot written before request and response headers were rendered', () => {
  it('renders its Ingresses’ headers into maps and frontend rules it did not have at its next write, byte-equal to a fresh snapshot', () => {
    const site = (annotations: Record<string, string>) =>
      ingress({ name: 'site', annotations, rules: [{ host: 'site.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), site({ 'haproxy.org/response-set-header': 'Cache-Control no-store' })].map(added))

    const older = new LiveCluster()
    older.apply([...app(1), site({})].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_HEADERS, objects: ['Ingress/default/site'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.headerValuesMap)).toBe('site.example.com/|P|res-set|cache-control no-store\n')
    expect(fresh.files().get(FILES.frontend)).toContain('http-response set-header cache-control ')
  })
})
