import type { ObjectRef } from '../kube/objects.ts'
import { accessGroupName } from '../model/access-group.ts'
import { canaryRulesOfObject } from '../model/canary.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import type { Table } from '../snapshot/table.ts'

/**
 * A canary Ingress's frontend rules derived again and stored (canary.ts). Its weights, totals and
 * header values are in host maps (runtime edits); the first canary, and a header or cookie name no
 * other canary reads, add rules to the frontend (HAProxy 2.6 names them in its rules), and the last
 * take them away: a reload, and the plan says which Ingress and name.
 */
export function reconcileCanaryRules(ref: ObjectRef, state: ClusterState, table: Table<string[]>, plan: Plan): void {
  if (ref.kind !== 'Ingress' || ref.namespace === undefined) return
  const key = accessGroupName(ref.namespace, ref.name)
  const before = table.get(key) ?? []
  const object = state.get(ref)
  const after = (object && canaryRulesOfObject(object, state)?.[1]) ?? []
  if (after.length > 0) table.set(key, after)
  else if (table.has(key)) table.delete(key)
  const gained = after.filter((rule) => !before.includes(rule))
  const lost = before.filter((rule) => !after.includes(rule))
  if (gained.length === 0 && lost.length === 0) return
  // The other canaries' rules (a scan of a table of one entry per canary Ingress): a rule they have stays.
  const others = new Set<string>()
  for (const [other, rules] of table.entries()) if (other !== key) for (const rule of rules) others.add(rule)
  const ingress = `Ingress ${ref.namespace}/${ref.name}`
  const news = gained.filter((rule) => !others.has(rule))
  const gone = lost.filter((rule) => !others.has(rule))
  if (news.length > 0) needReload(plan, `${ingress} is a canary reading ${news.join(', ')}: HAProxy names them in its rules, so a new one is a reload`)
  if (gone.length > 0) needReload(plan, `${ingress} no longer reads ${gone.join(', ')} as a canary: the frontend drops their rules`)
}
