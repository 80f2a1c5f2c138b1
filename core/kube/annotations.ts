import { z } from 'zod'
import { ownValue } from '../own-value.ts'

export const ANNOTATION_PREFIX = 'hapedge.io/'
export const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class'

const boolean = z.enum(['true', 'false'], { error: 'must be "true" or "false"' })

/** The annotations hapedge honours on an Ingress. Any other `hapedge.io/` key is refused, not ignored. */
export const hapedgeAnnotations = {
  'hapedge.io/ssl-redirect': boolean,
} satisfies Record<string, z.ZodType<string>>

export type HapedgeAnnotation = keyof typeof hapedgeAnnotations

export function checkHapedgeAnnotations(annotations: Record<string, string> | null | undefined, addIssue: (path: string, message: string) => void): void {
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (!key.startsWith(ANNOTATION_PREFIX)) continue
    const schema = ownValue<z.ZodType<string>>(hapedgeAnnotations, key)
    if (!schema) {
      addIssue(key, `unknown annotation (hapedge reads ${Object.keys(hapedgeAnnotations).join(', ')})`)
      continue
    }
    const result = schema.safeParse(value)
    if (!result.success) addIssue(key, result.error.issues[0]?.message ?? 'invalid value')
  }
}
