import type { FeatureName } from './features.ts'

/** ingress-nginx's mirror features (core/model/ingress-mirror.ts reads them, render-mirror.ts renders them): mirror-target first. */
export const MIRROR_FEATURES = ['mirror-target', 'mirror-host', 'mirror-request-body'] as const satisfies readonly FeatureName[]
