import type { z } from 'zod'

/** One thing wrong with an input, located by its field path (`spec.rules[0].host`). */
export interface Issue {
  code: string
  path: string
  message: string
}

export type PathSegment = string | number

/** `['spec', 'rules', 0, 'host']` → `spec.rules[0].host`; a key that is not an identifier is quoted. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) out += out ? `.${segment}` : segment
    else out += `[${JSON.stringify(String(segment))}]`
  }
  return out
}

/** Prefixes every issue's path with the parent's, the way zod builds paths bottom-up. */
export function prefixIssues(prefix: readonly PropertyKey[], issues: readonly Issue[]): Issue[] {
  const head = formatPath(prefix)
  return issues.map((issue) => ({
    ...issue,
    path: !issue.path ? head : !head ? issue.path : issue.path.startsWith('[') ? head + issue.path : `${head}.${issue.path}`,
  }))
}

export function issuesFromZod(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({ code: issue.code, path: formatPath(issue.path), message: issue.message }))
}

/** `spec.rules[0].host: must be a DNS name` — the one-line form used in rejections and CLI errors. */
export function describeIssue(issue: Issue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message
}
