import type { Features } from './features.ts'

/** Whether an Ingress reads its (non-Exact) paths as regular expressions: use-regex in any spelling, or ingress-nginx's rewrite-target, which implies it. */
export function readsRegexPaths(features: Features): boolean {
  const regex = features['use-regex']
  return regex !== undefined && regex !== 'off' && regex !== 'exact'
}

/** Whether an Ingress matches every path exactly, whatever its pathType (NGINX Inc.'s `path-regex: exact`, NGINX's `location =`). */
export const matchesPathsExactly = (features: Features) => features['use-regex'] === 'exact'
