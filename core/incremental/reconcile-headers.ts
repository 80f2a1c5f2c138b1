import type { ObjectRef } from '../kube/objects.ts'
import { accessGroupName } from '../model/access-group.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { headerRulesOfObject } from '../model/header-groups.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import type { Table } from '../snapshot/table.ts'

/**
 * An Ingress's header rules derived again and stored. Their values are in host maps (runtime
 * edits); a header NAME (or a removal, a set, a second addition of one) that no other Ingress
 * has is a new rule in the frontend, and one that goes a rule fewer: HAProxy 2.6 names headers
 * in its rules, never at request time, so that is a reload, and the plan says which Ingress and header.
 */
export function reconcileHeaderRules(ref: ObjectRef, state: ClusterState, table: Table<string[]>, plan: Plan): void {
  if (ref.kind !== 'Ingress' || ref.namespace === undefined) return
  const key = accessGroupName(ref.namespace, ref.name)
  const before = table.get(key) ?? []
  const object = state.get(ref)
  const after = (object && headerRulesOfObject(object, state)?.[1]) ?? []
  if (after.length > 0) table.set(key, after)
  else if (table.has(key)) table.delete(key)
  const gained = after.filter((rule) => !before.includes(rule))
  const lost = before.filter((rule) => !after.includes(rule))
  if (gained.length === 0 && lost.length === 0) return
  // The others' rules (a scan of a table of one entry per Ingress with header rules): a rule they have stays.
  const others = new Set<string>()
  for (const [other, rules] of table.entries()) if (other !== key) for (const rule of rules) others.add(rule)
  const ingress = `Ingress ${ref.namespace}/${ref.name}`
  const news = gained.filter((rule) => !others.has(rule))
  const gone = lost.filter((rule) => !others.has(rule))
  if (news.length > 0)
    needReload(plan, `${ingress} gained header rules (${describeRules(news)}): HAProxy names a header in its rules, so a new one is a reload`)
  if (gone.length > 0) needReload(plan, `${ingress} dropped header rules (${describeRules(gone)}): the frontend drops their rules`)
}

/** `req-set|x-foo` as `request set x-foo`, `res-add|x-a|2` as `response add x-a (2nd)`. */
function describeRules(rules: string[]): string {
  return rules
    .map((rule) => {
      const [op = '', name, nth] = rule.split('|')
      const [side, action] = op.split('-')
      return `${side === 'req' ? 'request' : 'response'} ${action} ${name}${nth ? ` (#${nth})` : ''}`
    })
    .join(', ')
}
