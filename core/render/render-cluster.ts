import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../model/routes.ts'
import { FILES, type RenderedFiles } from './files.ts'
import { renderBackend } from './render-backends.ts'
import { renderFrontend } from './render-frontend.ts'
import { renderGlobal } from './render-global.ts'
import { renderMaps } from './render-maps.ts'
import { renderTls } from './render-tls.ts'

export interface RenderOptions {
  httpBind: string
  httpsBind: string
}

/** Every file of a generation, from the model alone: the same model always gives the same bytes. */
export function renderCluster(model: ClusterModel, options: RenderOptions): RenderedFiles {
  const tls = renderTls(model)
  const backends = [...model.backends.values()].sort((a, b) => compareText(a.name, b.name))
  const files: RenderedFiles = new Map([
    [FILES.global, renderGlobal(model.settings)],
    [FILES.frontend, renderFrontend({ ...options, tls: tls.size > 0 })],
    [FILES.backends, backends.map(renderBackend).join('')],
    ...renderMaps(model),
    ...tls,
  ])
  return new Map([...files].sort(([a], [b]) => compareText(a, b)))
}
