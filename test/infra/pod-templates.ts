import { objectKey, type KubeObject } from './infra-files.ts'

export interface Container {
  name: string
  image: string
  command?: string[]
  args?: string[]
  restartPolicy?: string
  env?: { name: string; value?: string; valueFrom?: Record<string, { name?: string; key?: string; fieldPath?: string }> }[]
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[]
  ports?: { name?: string; containerPort: number }[]
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[]
  // The rest is read by the test that checks it.
  [field: string]: any
}

export interface PodSpec {
  serviceAccountName?: string
  initContainers?: Container[]
  containers: Container[]
  volumes?: { name: string }[]
  [field: string]: any
}

/** Each workload's pod template: its key, labels and spec. */
export function podTemplates(objects: KubeObject[]) {
  return objects
    .filter(({ kind }) => ['Deployment', 'DaemonSet', 'StatefulSet', 'Job'].includes(kind))
    .map((workload) => ({
      key: objectKey(workload),
      workload,
      labels: workload.spec.template.metadata.labels as Record<string, string>,
      spec: workload.spec.template.spec as PodSpec,
    }))
}

export const containersOf = (spec: PodSpec): Container[] => [...(spec.initContainers ?? []), ...spec.containers]

/** What an environment variable of a Secret holds when the test expands `$(VAR)`: a cluster token's shape. */
const SECRET_VALUE = 'hpe.prod-eu.0123456789abcdef'
/** What the downward API gives, for the fields the manifests use. */
const DOWNWARD: Record<string, string> = { 'metadata.name': 'hapedge-haproxy-7d4b9c-x2k8q', 'metadata.namespace': 'hapedge', 'status.podIP': '10.0.3.17' }

/**
 * The container's environment as the kubelet builds it from the manifests: `envFrom`
 * ConfigMaps first, then `env`; a Secret's value is a stand-in. A reference to a ConfigMap or
 * key that the manifests lack throws, as the kubelet would refuse to start the container.
 */
export function environmentOf(container: Container, objects: KubeObject[]): Map<string, string> {
  const configMap = (name: string) => {
    const found = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === name)
    if (!found) throw new Error(`container ${container.name}: no ConfigMap ${name}`)
    return found.data as Record<string, string>
  }
  const environment = new Map<string, string>()
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) for (const [key, value] of Object.entries(configMap(source.configMapRef.name))) environment.set(key, value)
    if (source.secretRef) throw new Error(`container ${container.name}: envFrom a Secret hides which variables it sets`)
  }
  for (const variable of container.env ?? []) environment.set(variable.name, variableValue(variable, configMap))
  return environment
}

function variableValue(variable: NonNullable<Container['env']>[number], configMap: (name: string) => Record<string, string>): string {
  if (variable.value !== undefined) return variable.value
  const { configMapKeyRef, secretKeyRef, fieldRef } = variable.valueFrom ?? {}
  if (configMapKeyRef) {
    const value = configMap(configMapKeyRef.name!)[configMapKeyRef.key!]
    if (value === undefined) throw new Error(`${variable.name}: ConfigMap ${configMapKeyRef.name} has no key ${configMapKeyRef.key}`)
    return value
  }
  if (secretKeyRef) return SECRET_VALUE
  if (fieldRef && DOWNWARD[fieldRef.fieldPath!] !== undefined) return DOWNWARD[fieldRef.fieldPath!]!
  throw new Error(`${variable.name}: a source the test does not know`)
}

/** `args` with each `$(VAR)` replaced as the kubelet does; a reference to a variable the container lacks throws (the kubelet would pass it on verbatim). */
export function expandedArgs(container: Container, objects: KubeObject[]): string[] {
  const environment = environmentOf(container, objects)
  return (container.args ?? []).map((arg) =>
    arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (_reference, name: string) => {
      const value = environment.get(name)
      if (value === undefined) throw new Error(`container ${container.name}: $(${name}) names no variable of its environment`)
      return value
    }),
  )
}
