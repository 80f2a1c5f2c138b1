import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../model/routes.ts'
import { certificateFile, FILES, type Entry, type Layout } from './files.ts'
import { renderBackend } from './render-backends.ts'
import { renderFrontend } from './render-frontend.ts'
import { renderGlobal } from './render-global.ts'
import { defaultMap, HOST_MAPS, renderHostMaps, sortEntries } from './render-maps.ts'
import { crtListEntry, hostsBySecret } from './render-tls.ts'

export interface RenderOptions {
  httpBind: string
  httpsBind: string
}

/** Every file of a generation, from the model alone: the same model always gives the same bytes. */
export function renderLayout(model: ClusterModel, options: RenderOptions): Layout {
  const secrets = hostsBySecret(model)
  const maps = renderHostMaps(model)
  const layout: Layout = new Map<string, string | Entry[]>([
    [FILES.global, renderGlobal(model.settings)],
    [FILES.frontend, renderFrontend({ ...options, tls: secrets.size > 0 })],
    [FILES.backends, sortEntries([...model.backends.values()].map((backend) => ({ key: backend.name, text: renderBackend(backend) })))],
    ...HOST_MAPS.map((map) => [map, maps[map]] as const),
    [FILES.defaultMap, defaultMap(model.defaultBackend)],
  ])
  if (secrets.size > 0) {
    layout.set(FILES.crtList, sortEntries([...secrets].map(([secret, hosts]) => crtListEntry(secret, hosts))))
    for (const secret of secrets.keys()) layout.set(certificateFile(secret), model.certificates.get(secret)!)
  }
  return new Map([...layout].sort(([a], [b]) => compareText(a, b)))
}
