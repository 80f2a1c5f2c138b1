/** The `HAProxyCfg` custom resource (infra/crd/haproxycfg.yaml): one per cluster, its status naming the committed generation. */
export const HAPROXYCFG = {
  group: 'hapedge.io',
  version: 'v1alpha1',
  kind: 'HAProxyCfg',
  plural: 'haproxycfgs',
} as const

export const HAPROXYCFG_API_VERSION = `${HAPROXYCFG.group}/${HAPROXYCFG.version}`

/** Which HAProxyCfg a cluster's status goes to. */
export interface ResourceTarget {
  namespace: string
  name: string
}

export interface HAProxyCfgSpec {
  /** The cluster's id in hapedge's registry. */
  cluster: string
  /** The function's base URL, where agents read HEAD, manifests and blobs. */
  source?: string
}

/** One file of the generation, as the manifest names it. */
export interface StatusFile {
  path: string
  /** The content's sha256 for a file stored whole; the root of its chunk tree when `chunked`. */
  sha256: string
  size: number
  chunked: boolean
}

export interface StatusRejection {
  /** `Ingress shop/web` */
  object: string
  reason: string
}

/** `metav1.Condition`, as Kubernetes defines it. */
export interface StatusCondition {
  type: ConditionType
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message: string
  lastTransitionTime: string
  observedGeneration: number
}

export type ConditionType = 'Committed' | 'Converged' | 'Degraded' | 'Pinned'

/** What one agent last reported of its HAProxy (fields it has not reported yet are left out, as Kubernetes omits empty fields). */
export interface StatusPod {
  pod: string
  generation?: number
  manifest?: string
  applied?: 'runtime' | 'reload' | 'written'
  appliedAt?: string
  lastError?: string
}

export interface StatusWarning {
  object: string
  annotation: string
  reason: string
}

export interface HAProxyCfgStatus {
  generation: number
  manifest: string
  /** The manifest's first 12 hex digits, for `kubectl get`'s columns. */
  shortManifest: string
  committedAt: string
  /** How many files the generation has and their bytes (the list below may be cut short). */
  fileCount: number
  totalBytes: number
  files: StatusFile[]
  reload: boolean
  reloadReasons: string[]
  /** Every rejection counted; the list holds the first ones in order. */
  rejectedCount: number
  /** Ingresses not served because of the class they ask for (left out while a snapshot from before they were counted is HEAD's). */
  ignored?: { otherClass: number; noDefaultClass: number }
  rejected: StatusRejection[]
  /** Every annotation warning counted; the list holds the first ones in order. */
  warningCount: number
  /** Annotations of served Ingresses that hapedge does not honour as written. */
  warnings: StatusWarning[]
  conditions: StatusCondition[]
  pods: StatusPod[]
}

export interface HAProxyCfg {
  apiVersion: typeof HAPROXYCFG_API_VERSION
  kind: typeof HAPROXYCFG.kind
  metadata: { name: string; namespace: string; resourceVersion?: string; generation?: number }
  spec: HAProxyCfgSpec
  status?: HAProxyCfgStatus
}

/**
 * Caps that keep a status (the HAProxyCfg's, a Gateway API condition's message) far below etcd's 1.5 MiB object limit at any cluster size: a generation
 * has dozens of files, but rejections and pods grow with the cluster.
 */
export const STATUS_LIMITS = {
  files: 500,
  reloadReasons: 20,
  rejected: 100,
  warnings: 100,
  pods: 200,
  /** Characters of a reason, a message or an agent's error. */
  text: 1024,
} as const
