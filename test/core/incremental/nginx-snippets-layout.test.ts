import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before NGINX snippets were translated (nginx-snippet.ts): every snippet was refused, so no header rule came of it. */
const BEFORE_SNIPPETS = 33

describe('a snapshot written before NGINX snippets were translated', () => {
  it('renders a snippet’s headers, its variable’s rule and the unique-id format at its next write, byte-equal to a fresh snapshot', () => {
    const site = (annotations: Record<string, string>) =>
      ingress({ name: 'site', annotations, rules: [{ host: 'site.example.com', paths: [{ service: 'app-1' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), site({ 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "Request-Id: $req_id";' })].map(added))

    const older = new LiveCluster()
    older.apply([...app(1), site({})].map(added))
    writeAfterUpgrade(olderSnapshot(older, fresh, { layout: BEFORE_SNIPPETS, objects: ['Ingress/default/site'] }), older, fresh)
    expect(fresh.files().get(FILES.headerValuesMap)).toBe('site.example.com/|P|res-set|request-id|req_id 1\n')
    expect(fresh.files().get(FILES.frontend)).toContain('http-response set-header request-id %[unique-id] ')
    expect(fresh.files().get(FILES.frontend)).toContain('unique-id-format %[uuid(4),regsub(-,,g)]')
  })
})
