import type { ObjectRef } from '../kube/objects.ts'
import { canaryRulesOfObject } from '../model/canary.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import type { Plan } from '../plan/plan.ts'
import { reconcileFrontendRules, type RuleTables } from './reconcile-frontend-rules.ts'

/**
 * A canary Ingress's frontend rules derived again and stored (canary.ts). Its weights, totals and
 * header values are in host maps (runtime edits); the first canary, and a header or cookie name no
 * other canary reads, add rules to the frontend, and the last take them away: a reload, and the
 * plan says which Ingress and name.
 */
export function reconcileCanaryRules(ref: ObjectRef, state: ClusterState, tables: RuleTables, plan: Plan): void {
  reconcileFrontendRules(ref, state, tables, plan, (object) => canaryRulesOfObject(object, state)?.[1], {
    gained: (ingress, names) => `${ingress} is a canary reading ${names.join(', ')}: HAProxy names them in its rules, so a new one is a reload`,
    lost: (ingress, names) => `${ingress} no longer reads ${names.join(', ')} as a canary: the frontend drops their rules`,
  })
}
