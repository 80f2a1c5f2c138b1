import type { FileSet } from '../generation/file-set.ts'
import type { ObjectRef } from '../kube/objects.ts'
import { accessGroupName, trustedProxies, type AccessGroup } from '../model/access-group.ts'
import type { BasicAuth } from '../model/basic-auth.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { accessGroupOfObject } from '../model/derive-cluster.ts'
import type { Settings } from '../model/settings.ts'
import { addAclChanges, aclChanges } from '../plan/acl-updates.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import { accessFiles, TRUSTED_PROXIES_FILE, trustedProxiesFile } from '../render/render-access.ts'
import { limitExemptFile, limitExemptFiles } from '../render/render-limits.ts'
import type { Table } from '../snapshot/table.ts'

/**
 * An Ingress's access group derived again: stored, its ACL files set (a changed entry is a
 * runtime ACL edit) or deleted. A group that appears or goes changes the frontend's rules,
 * which the frontend's own render tells; the plan says which Ingress.
 */
export function reconcileAccessGroup(ref: ObjectRef, state: ClusterState, groups: Table<AccessGroup>, files: FileSet, plan: Plan): void {
  if (ref.kind !== 'Ingress' || ref.namespace === undefined) return
  const name = accessGroupName(ref.namespace, ref.name)
  const before = groups.get(name)
  const object = state.get(ref)
  const after = object && accessGroupOfObject(object, state)
  if (after) groups.set(name, after)
  else if (before) groups.delete(name)
  const ranges = (group: AccessGroup) => group.allow !== undefined || group.deny !== undefined
  if (!before && after && (ranges(after) || after.auth))
    needReload(
      plan,
      ranges(after)
        ? `Ingress ${ref.namespace}/${ref.name} gained source ranges: the frontend has rules for them`
        : `Ingress ${ref.namespace}/${ref.name} gained basic authentication: the frontend has a rule for it`,
    )
  if (before && !after && (ranges(before) || before.auth))
    needReload(
      plan,
      ranges(before)
        ? `Ingress ${ref.namespace}/${ref.name} lost its source ranges: the frontend drops their rules`
        : `Ingress ${ref.namespace}/${ref.name} lost its basic authentication: the frontend drops its rule`,
    )
  if (before && after) {
    const reason = authChange(`Ingress ${ref.namespace}/${ref.name}`, before.auth, after.auth)
    if (reason) needReload(plan, reason)
  }
  const texts = after ? accessFiles(after) : before ? accessFiles(before).map(([path]) => [path, undefined] as const) : []
  for (const [path, text] of texts) setAclFile(files, path, text, plan)
  setAclFile(files, limitExemptFile(name), after && limitExemptFiles(after)[0]?.[1], plan)
  if (Boolean(before?.limitExempt) !== Boolean(after?.limitExempt))
    needReload(plan, `Ingress ${ref.namespace}/${ref.name} ${after?.limitExempt ? 'gained' : 'lost its'} limit-allowlist: the frontend's rule for it changes`)
}

/** Why a group's basic authentication needs a reload, if it changed: HAProxy 2.6 has no runtime command for userlists. */
function authChange(ingress: string, was: BasicAuth | undefined, is: BasicAuth | undefined): string | undefined {
  if (!was && !is) return undefined
  if (!was || !is) return `${ingress} ${is ? 'gained' : 'lost its'} basic authentication: the frontend's rules change`
  if (was.userlist !== is.userlist || was.realm !== is.realm)
    return `${ingress}'s basic authentication changed (its Secret, its format or its realm): the frontend's rule changes`
  if (JSON.stringify(was.users) !== JSON.stringify(is.users)) return `userlist of Secret ${is.secret} changed: HAProxy 2.6 reads users only at a reload`
  return undefined
}

/** The trusted proxies' ACL file, from the settings (absent when X-Forwarded-For is not honoured). */
export function reconcileTrustedProxies(settings: Settings, files: FileSet, plan: Plan): void {
  const proxies = trustedProxies(settings)
  setAclFile(files, TRUSTED_PROXIES_FILE, proxies.length > 0 ? trustedProxiesFile(proxies) : undefined, plan)
}

/** An ACL file set or deleted; a changed one that stays is edited at runtime (a new or gone one comes with the frontend's change). */
function setAclFile(files: FileSet, path: string, text: string | undefined, plan: Plan): void {
  const before = files.text(path)
  if (!files.setText(path, text)) return
  if (before !== undefined && text !== undefined) addAclChanges(plan, aclChanges(path, before, text))
}
