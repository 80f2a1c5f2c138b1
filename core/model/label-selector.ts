import { z } from 'zod'
import { describeIssue, issuesFromZod } from '../issues.ts'

/**
 * A Kubernetes label selector (metav1.LabelSelector): every `matchLabels` pair and every
 * `matchExpressions` requirement must hold; an empty selector selects everything.
 */
const labelSelector = z
  .object({
    matchLabels: z.record(z.string().max(317), z.string().max(63)).optional(),
    matchExpressions: z
      .array(
        z.union([
          z.object({ key: z.string().min(1).max(317), operator: z.enum(['In', 'NotIn']), values: z.array(z.string().max(63)).min(1).max(64) }),
          z.object({ key: z.string().min(1).max(317), operator: z.enum(['Exists', 'DoesNotExist']), values: z.array(z.string()).max(0).optional() }),
        ]),
      )
      .max(32)
      .optional(),
  })
  .strict()

export type LabelSelector = z.infer<typeof labelSelector>

/** A selector as written, or why it is none (the Kubernetes API server would have refused it; the Gateway API's CRD schema does not look inside). */
export function readLabelSelector(value: unknown): { selector: LabelSelector } | { invalid: string } {
  if (value === undefined) return { invalid: 'is missing' }
  const read = labelSelector.safeParse(value)
  return read.success ? { selector: read.data } : { invalid: `is not a label selector: ${issuesFromZod(read.error).slice(0, 3).map(describeIssue).join('; ')}` }
}

/** Whether a selector selects an object of these labels. */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const has = (key: string) => Object.hasOwn(labels, key)
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (!has(key) || labels[key] !== value) return false
  for (const requirement of selector.matchExpressions ?? []) {
    const { key, operator } = requirement
    if (operator === 'Exists' && !has(key)) return false
    if (operator === 'DoesNotExist' && has(key)) return false
    if (operator === 'In' && !(has(key) && requirement.values.includes(labels[key]!))) return false
    if (operator === 'NotIn' && has(key) && requirement.values.includes(labels[key]!)) return false
  }
  return true
}
