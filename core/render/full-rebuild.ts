import { readObject } from '../kube/objects.ts'
import { withTlsProblem } from '../kube/tls-secret-check.ts'
import { ClusterState } from '../model/cluster-state.ts'
import { deriveCluster, type ClusterModel } from '../model/derive-cluster.ts'
import type { ClusterOptions } from '../model/settings.ts'
import { flattenLayout, type Layout, type RenderedFiles } from './files.ts'
import { renderLayout } from './render-cluster.ts'

export interface Rendered {
  state: ClusterState
  model: ClusterModel
  layout: Layout
  /** Each file's whole text (joined on first use). */
  readonly files: RenderedFiles
}

/**
 * The reference path: read every object, derive everything, render everything. `tlsProblems`
 * (from tlsSecretProblems) are the TLS Secrets whose certificate and key do not load together,
 * which are read as invalid, as a write reads them; without it, none are.
 */
export function fullRebuild(
  objects: Iterable<unknown>,
  options: Partial<ClusterOptions> = {},
  tlsProblems: ReadonlyMap<unknown, string> = new Map(),
): Rendered {
  const state = new ClusterState(options)
  for (const object of objects) state.apply(withTlsProblem(readObject(object), tlsProblems.get(object)))
  const model = deriveCluster(state)
  const layout = renderLayout(model, state.options)
  let files: RenderedFiles | undefined
  return {
    state,
    model,
    layout,
    get files() {
      return (files ??= flattenLayout(layout))
    },
  }
}
