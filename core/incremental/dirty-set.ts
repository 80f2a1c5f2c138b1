import type { ObjectRef } from '../kube/objects.ts'

/** What a batch of events touched: the keys whose derived output must be looked at again. */
export class DirtySet {
  readonly hosts = new Set<string>()
  /** `namespace/name` of Services whose backends must be re-derived. */
  readonly services = new Set<string>()
  /** `namespace/name` of Secrets whose TLS hosts must be re-derived. */
  readonly secrets = new Set<string>()
  /** `namespace/name` of ConfigMaps whose custom-headers Ingresses must be re-derived. */
  readonly configMaps = new Set<string>()
  /** Objects whose own validity report may have changed. */
  readonly objects: ObjectRef[] = []
  defaultBackend = false
  settings = false
  ingressClass = false
}
