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

/** An object's frontend rules stored by its key, and how many objects have each rule (the frontend names each once). */
export interface RuleTables {
  byObject: Table<string[]>
  uses: Table<number>
}

/**
 * The rules an Ingress adds to the frontend, derived again and stored per Ingress (header rules,
 * canary rules). Their values are in host maps (runtime edits), but HAProxy 2.6 names headers and
 * cookies in its rules: a rule no other Ingress has is a reload, and so is the last of one going.
 * Each rule's count of objects says so without a scan of the others, so a change costs the same
 * beside ten canaries as beside ten thousand.
 */
export function reconcileFrontendRules(
  ref: ObjectRef,
  state: ClusterState,
  tables: RuleTables,
  plan: Plan,
  rulesOf: (object: KubeObject | InvalidObject) => string[] | undefined,
  reasons: RuleReasons,
): void {
  if (!['Ingress', 'HTTPRoute', 'GRPCRoute'].includes(ref.kind) || ref.namespace === undefined) return
  const { byObject, uses } = tables
  const key = frontendRulesKey(ref)
  const before = byObject.get(key) ?? []
  const object = state.get(ref)
  const after = (object && rulesOf(object)) ?? []
  if (after.length > 0) byObject.set(key, after)
  else if (byObject.has(key)) byObject.delete(key)
  const news = after.filter((rule) => !before.includes(rule) && countUse(uses, rule, +1) === 1)
  const gone = before.filter((rule) => !after.includes(rule) && countUse(uses, rule, -1) === 0)
  const ingress = describeRef(ref)
  if (news.length > 0) needReload(plan, reasons.gained(ingress, news))
  if (gone.length > 0) needReload(plan, reasons.lost(ingress, gone))
}

/** Adds `by` to a rule's count of objects, and returns the new count (a rule no object has is no entry). */
function countUse(uses: Table<number>, rule: string, by: 1 | -1): number {
  const count = (uses.get(rule) ?? 0) + by
  if (count > 0) uses.set(rule, count)
  else uses.delete(rule)
  return count
}

/** Every rule once: the keys of its count table, which holds one entry per distinct rule. */
export function distinctRules(tables: RuleTables): string[] {
  return [...tables.uses.entries()].map(([rule]) => rule)
}

/** The counts built again from the objects' rules: once, for a snapshot of a layout that had none. */
export function recountRuleUses(tables: RuleTables): void {
  for (const [rule] of [...tables.uses.entries()]) tables.uses.delete(rule)
  const counts = new Map<string, number>()
  for (const [, rules] of tables.byObject.entries()) for (const rule of rules) counts.set(rule, (counts.get(rule) ?? 0) + 1)
  for (const [rule, count] of counts) tables.uses.set(rule, count)
}
