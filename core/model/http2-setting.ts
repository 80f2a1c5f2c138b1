import type { ConfigMap } from '../kube/config-map.ts'
import { perObject } from './per-object.ts'
import { readSettings } from './settings.ts'

const http2Of = perObject((configMap: ConfigMap) => readSettings(configMap.data).settings['use-http2'])

/** The settings ConfigMap's `use-http2` (HTTP/2 offered by ALPN on the HTTPS bind), read as every setting is: on without one. */
export function http2Offered(configMap: ConfigMap | undefined): boolean {
  return configMap ? http2Of(configMap) : true
}
