import type { PinSummary } from '../reading/head.ts'
import type { IgnoredIngresses } from '../model/cluster-state.ts'
import { runsHead } from '../registry/agent-behind.ts'
import type { HAProxyCfgStatus, StatusCondition, StatusPod } from '../kube/haproxycfg.ts'

/** Pods named in a condition's message; the rest are counted. */
const NAMED_PODS = 10

interface ConditionFacts {
  generation: number
  manifest: string
  /** When these facts hold: the commit's time. */
  at: string
  rejected: number
  /** Ingresses not served because of their class: not a fault here, but said, so "every object is served" is not said of them. */
  ignored?: IgnoredIngresses | undefined
  pods: readonly StatusPod[]
  pinned?: PinSummary | undefined
}

/**
 * `Committed` (always True once a generation exists), `Converged` (every reporting agent runs
 * this generation's manifest, whichever generation it took it from; Unknown before any reports), `Degraded` (an object is rejected or an agent
 * reports an error), `Pinned` (a rollback holds the cluster on an earlier generation's content). `observedGeneration` is the resource's `metadata.generation`, which only
 * the writer knows: it is 0 until `carryConditions` sets it.
 */
export function statusConditions(facts: ConditionFacts): StatusCondition[] {
  const condition = (type: StatusCondition['type'], status: StatusCondition['status'], reason: string, message: string): StatusCondition => ({
    type,
    status,
    reason,
    message,
    lastTransitionTime: facts.at,
    observedGeneration: 0,
  })
  return [
    condition('Committed', 'True', 'Committed', `generation ${facts.generation} is committed (manifest ${facts.manifest.slice(0, 12)})`),
    converged(facts, condition),
    degraded(facts, condition),
    pinned(facts, condition),
  ]
}

function pinned({ pinned }: ConditionFacts, condition: Make): StatusCondition {
  if (!pinned) return condition('Pinned', 'False', 'Following', 'each change is served as it is committed')
  return condition(
    'Pinned',
    'True',
    'RolledBack',
    `rolled back to generation ${pinned.generation} at ${pinned.since}; ${pinned.held} change(s) since are held until the cluster is released`,
  )
}

type Make = (type: StatusCondition['type'], status: StatusCondition['status'], reason: string, message: string) => StatusCondition

function converged({ generation, manifest, pods }: ConditionFacts, condition: Make): StatusCondition {
  if (pods.length === 0) return condition('Converged', 'Unknown', 'NoAgentReports', 'no agent has reported the generation it runs')
  const behind = pods.filter((pod) => !runsHead({ generation, manifest }, pod))
  if (behind.length === 0) return condition('Converged', 'True', 'AllPodsCurrent', `${pods.length} pod(s) run generation ${generation}`)
  const named = behind.map((pod) => `${pod.pod} (${pod.generation ?? 'none'})`)
  return condition('Converged', 'False', 'PodsBehind', `${behind.length} of ${pods.length} pod(s) do not run generation ${generation} yet: ${listSome(named)}`)
}

function degraded({ rejected, ignored, pods }: ConditionFacts, condition: Make): StatusCondition {
  const failing = pods.filter((pod) => pod.lastError !== undefined)
  const parts: string[] = []
  if (rejected > 0) parts.push(`${rejected} object(s) are not served (status.rejected)`)
  if (failing.length > 0) parts.push(`${failing.length} pod(s) report an error: ${listSome(failing.map((pod) => pod.pod))}`)
  const notOurs = ignoredByClass(ignored)
  if (parts.length === 0) {
    if (!notOurs) return condition('Degraded', 'False', 'AsExpected', 'every object is served and no agent reports an error')
    return condition('Degraded', 'False', 'AsExpected', `every object of this cluster's class is served and no agent reports an error; ${notOurs}`)
  }
  const reason = rejected > 0 && failing.length > 0 ? 'RejectedAndAgentErrors' : rejected > 0 ? 'ObjectsRejected' : 'AgentErrors'
  return condition('Degraded', 'True', reason, [...parts, ...(notOurs ? [notOurs] : [])].join('; '))
}

/** What the class leaves unserved, in words, or undefined when nothing. */
function ignoredByClass(ignored: IgnoredIngresses | undefined): string | undefined {
  const parts: string[] = []
  if (ignored && ignored.otherClass > 0) parts.push(`${ignored.otherClass} Ingress(es) of other classes`)
  if (ignored && ignored.noDefaultClass > 0)
    parts.push(`${ignored.noDefaultClass} Ingress(es) without a class (this cluster's class is not the default IngressClass)`)
  return parts.length > 0 ? `${parts.join(' and ')} are ignored (status.ignored)` : undefined
}

function listSome(names: readonly string[]): string {
  const shown = names.slice(0, NAMED_PODS).join(', ')
  return names.length > NAMED_PODS ? `${shown} and ${names.length - NAMED_PODS} more` : shown
}

/**
 * Readies a status for the resource it is written to: a condition whose status did not change
 * keeps its previous `lastTransitionTime` (as Kubernetes defines it), and every condition
 * names the resource's `metadata.generation`.
 */
export function carryConditions(next: HAProxyCfgStatus, previous: readonly StatusCondition[] | undefined, observedGeneration: number): HAProxyCfgStatus {
  return { ...next, conditions: carryConditionList(next.conditions, previous, observedGeneration) }
}

/** A condition as the writer compares it with the one it read: only its type, status and time are relied on. */
interface TimedCondition {
  type: string
  status: string
  lastTransitionTime: string
  observedGeneration: number
}

/** Conditions readied for their resource (see carryConditions); `previous` is what was read, of any shape. */
export function carryConditionList<T extends TimedCondition>(next: readonly T[], previous: unknown, observedGeneration: number): T[] {
  const before = new Map<string, Partial<TimedCondition>>()
  if (Array.isArray(previous))
    for (const condition of previous as Partial<TimedCondition>[]) if (typeof condition?.type === 'string') before.set(condition.type, condition)
  return next.map((condition) => {
    const earlier = before.get(condition.type)
    const kept = earlier && earlier.status === condition.status && typeof earlier.lastTransitionTime === 'string'
    return { ...condition, lastTransitionTime: kept ? earlier.lastTransitionTime! : condition.lastTransitionTime, observedGeneration }
  })
}
