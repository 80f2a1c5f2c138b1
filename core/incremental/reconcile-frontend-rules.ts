import { describeRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import { frontendRulesKey } from '../model/canary.ts'
import type { ClusterState, InvalidObject } from '../model/cluster-state.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import type { Table } from '../snapshot/table.ts'

/** Why a reload: an Ingress gained rules no other Ingress has, or lost the last of some. */
export interface RuleReasons {
  gained(ingress: string, rules: string[]): string
  lost(ingress: string, rules: string[]): string
}

/**
 * The rules an Ingress adds to the frontend, derived again and stored per Ingress (header rules,
 * canary rules). Their values are in host maps (runtime edits), but HAProxy 2.6 names headers and
 * cookies in its rules: a rule no other Ingress has is a reload, and so is the last of one going.
 */
export function reconcileFrontendRules(
  ref: ObjectRef,
  state: ClusterState,
  table: Table<string[]>,
  plan: Plan,
  rulesOf: (object: KubeObject | InvalidObject) => string[] | undefined,
  reasons: RuleReasons,
): void {
  if ((ref.kind !== 'Ingress' && ref.kind !== 'HTTPRoute') || ref.namespace === undefined) return
  const key = frontendRulesKey(ref)
  const before = table.get(key) ?? []
  const object = state.get(ref)
  const after = (object && rulesOf(object)) ?? []
  if (after.length > 0) table.set(key, after)
  else if (table.has(key)) table.delete(key)
  const gained = after.filter((rule) => !before.includes(rule))
  const lost = before.filter((rule) => !after.includes(rule))
  if (gained.length === 0 && lost.length === 0) return
  // The others' rules (a scan of a table of one entry per Ingress that has such rules): a rule they have stays.
  const others = new Set<string>()
  for (const [other, rules] of table.entries()) if (other !== key) for (const rule of rules) others.add(rule)
  const ingress = describeRef(ref)
  const news = gained.filter((rule) => !others.has(rule))
  const gone = lost.filter((rule) => !others.has(rule))
  if (news.length > 0) needReload(plan, reasons.gained(ingress, news))
  if (gone.length > 0) needReload(plan, reasons.lost(ingress, gone))
}
