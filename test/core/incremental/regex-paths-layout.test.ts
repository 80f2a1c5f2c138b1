import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before regex routes: a use-regex path that is no Prefix form was refused, and path-regex.map and rewrite-regex.map did not exist. */
const BEFORE_REGEX_PATHS = 28
const NEW_MAPS = [FILES.pathRegexMap, FILES.rewriteRegexMap]

describe('a snapshot written before regular-expression paths were served', () => {
  it('serves the path it refused at its next write, in maps it did not have, byte-equal to a fresh snapshot', () => {
    const cafe = (path: string) =>
      ingress({
        name: 'cafe',
        annotations: { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/beverages/$1/$2' },
        rules: [{ host: 'cafe.example.com', paths: [{ path, pathType: 'ImplementationSpecific', service: 'app-1' }] }],
      })
    const fresh = new LiveCluster()
    fresh.apply([...app(1), cafe('/menu/([^/]+)/([^/]+)')].map(added))
    // The older hapedge refused the path, as this one refuses one outside the safe subset.
    const older = new LiveCluster()
    older.apply([...app(1), cafe('/menu/(a+)+/(b)')].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_REGEX_PATHS, objects: ['Ingress/default/cafe'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.pathRegexMap)).toBe(
      '^cafe\\.example\\.com(?#9976)(?:/menu/([^\\/]+)/([^\\/]+)) cafe.example.com~/menu/([^\\/]+)/([^\\/]+)\n',
    )
    expect(fresh.files().get(FILES.rewriteRegexMap)).toBe('^cafe\\.example\\.com(?#9976)(?:/menu/([^\\/]+)/([^\\/]+)) /beverages/\\1/\\2\n')
  })
})
