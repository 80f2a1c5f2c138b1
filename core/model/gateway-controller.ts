import type { ConfigMap } from '../kube/config-map.ts'
import { perObject } from './per-object.ts'
import { DEFAULT_GATEWAY_CONTROLLER, readSettings } from './settings.ts'

const controllerOf = perObject((configMap: ConfigMap) => readSettings(configMap.data).settings['gateway-controller'])

/** The settings ConfigMap's `gateway-controller`, read as every setting is (a bad value: the default, reported on the ConfigMap). */
export function gatewayController(configMap: ConfigMap | undefined): string {
  return configMap ? controllerOf(configMap) : DEFAULT_GATEWAY_CONTROLLER
}
