import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { buildGeneration } from '../../core/generation/generation.ts'
import { sha256Text } from '../../core/hash.ts'
import type { CommitFacts } from '../../core/status/haproxycfg-status.ts'
import { statusFiles } from '../../core/status/status-files.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { endpointSlice, ingress, ingressClass, service } from './objects.ts'

/**
 * What a real commit knows about a cluster of `ingresses` Ingresses (enough to chunk the host
 * maps), two of them rejected, and two agents: one current, one a generation behind with an error.
 */
export function statusFacts(ingresses = 400, generation = 7): CommitFacts {
  const objects: unknown[] = [ingressClass('hapedge', true)]
  for (let i = 0; i < ingresses; i++) {
    objects.push(ingress({ name: `app-${i}`, namespace: 'apps', rules: [{ host: `app-${i}.example.com`, paths: [{ service: `app-${i % 20}` }] }] }))
  }
  for (let s = 0; s < 20; s++)
    objects.push(service(`app-${s}`, [{ port: 80 }], 'apps'), endpointSlice(`app-${s}`, [`10.0.0.${s + 1}`], [{ port: 8080 }], { namespace: 'apps' }))
  objects.push(ingress({ name: 'bad-host', namespace: 'apps', rules: [{ host: 'under_score.example.com', paths: [{ service: 'app-1' }] }] }))
  objects.push(
    ingress({ name: 'late', namespace: 'apps', createdAt: '2025-01-01T00:00:00Z', rules: [{ host: 'app-1.example.com', paths: [{ service: 'app-2' }] }] }),
  )
  objects.push(
    ingress({
      name: 'annotated',
      namespace: 'apps',
      annotations: { 'nginx.ingress.kubernetes.io/proxy-buffering': 'on' },
      rules: [{ host: 'annotated.example.com', paths: [{ service: 'app-3' }] }],
    }),
  )
  const rebuilt = fullRebuild(objects)
  const built = buildGeneration(rebuilt.layout, { nodes: new NodeCache(), hash: sha256Text })
  const manifest = built.record.sha256
  return {
    generation,
    manifest,
    committedAt: '2025-06-01T12:00:00.000Z',
    files: statusFiles(built.manifest),
    reload: true,
    reloadReasons: ['backend app-3_80 added'],
    rejected: rebuilt.model.rejections,
    warnings: rebuilt.model.warnings,
    ignored: rebuilt.state.ignoredByClass(),
    pods: [
      { pod: 'haproxy-0', generation, manifest, applied: 'runtime', appliedAt: '2025-06-01T12:00:01.000Z', lastError: null },
      {
        pod: 'haproxy-1',
        generation: generation - 1,
        manifest: sha256Text('older'),
        applied: 'reload',
        appliedAt: '2025-06-01T11:00:00.000Z',
        lastError: 'haproxy -c refused the new files',
      },
    ],
  }
}
