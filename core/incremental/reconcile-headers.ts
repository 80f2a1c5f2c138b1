import type { ObjectRef } from '../kube/objects.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { headerRulesOfObject } from '../model/header-groups.ts'
import { ruleParts } from '../model/header-rules.ts'
import type { Plan } from '../plan/plan.ts'
import { reconcileFrontendRules, type RuleTables } from './reconcile-frontend-rules.ts'

/**
 * An Ingress's header rules derived again and stored. Their values are in host maps (runtime
 * edits); a header NAME (or a removal, a set, a second addition of one) that no other Ingress
 * has is a new rule in the frontend, and one that goes a rule fewer: HAProxy 2.6 names headers
 * in its rules, never at request time, so that is a reload, and the plan says which Ingress and header.
 */
export function reconcileHeaderRules(ref: ObjectRef, state: ClusterState, tables: RuleTables, plan: Plan): void {
  reconcileFrontendRules(ref, state, tables, plan, (object) => headerRulesOfObject(object, state)?.[1], {
    gained: (ingress, rules) => `${ingress} gained header rules (${describeRules(rules)}): HAProxy names a header in its rules, so a new one is a reload`,
    lost: (ingress, rules) => `${ingress} dropped header rules (${describeRules(rules)}): the frontend drops their rules`,
  })
}

/** `req-set|x-foo` as `request set x-foo`, `res-add|x-a|2` as `response add x-a (#2)`, `res-set|x-id|req_id` as `response set x-id ($req_id)`. */
function describeRules(rules: string[]): string {
  return rules
    .map((rule) => {
      const { op, name, nth, variable } = ruleParts(rule)
      const [side, action] = op.split('-')
      return `${side === 'req' ? 'request' : 'response'} ${action} ${name}${nth > 1 ? ` (#${nth})` : ''}${variable === undefined ? '' : ` ($${variable})`}`
    })
    .join(', ')
}
