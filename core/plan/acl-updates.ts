import type { AclChange, Plan } from './plan.ts'

/**
 * How an ACL file (one pattern a line) gets from one content to the next at runtime: `add acl`
 * for each new pattern, then `del acl` for each gone one. Adds come first, so a changed list is
 * never empty on the way: a request meanwhile sees the old patterns, the new ones or both.
 * Patterns are addresses and CIDRs, one word each (validated when read).
 */
export function aclChanges(acl: string, before: string, after: string): AclChange[] {
  const old = patterns(before)
  const now = patterns(after)
  return [
    ...[...now].filter((pattern) => !old.has(pattern)).map((pattern) => ({ acl, op: 'add' as const, pattern })),
    ...[...old].filter((pattern) => !now.has(pattern)).map((pattern) => ({ acl, op: 'del' as const, pattern })),
  ]
}

/** An ACL file's changes added to a plan: adds before any deletion, whichever file they belong to. */
export function addAclChanges(plan: Plan, changes: readonly AclChange[]): void {
  if (changes.length === 0) return
  const all = [...(plan.acls ?? []), ...changes]
  plan.acls = [...all.filter((change) => change.op === 'add'), ...all.filter((change) => change.op === 'del')]
}

function patterns(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
}
