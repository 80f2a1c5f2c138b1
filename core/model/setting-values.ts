import { z } from 'zod'

/** The settings ConfigMap's value forms, shared by its keys (settings.ts, edge-settings.ts). */

/** A time as HAProxy writes it, passed to it as written. */
export const haproxyTime = z.string().regex(/^\d{1,9}(us|ms|s|m|h|d)?$/, 'must be an HAProxy time such as "5s" or "500ms"')

/** Exactly `"true"` or `"false"`, as a boolean. */
export const flag = z.enum(['true', 'false'], { error: 'must be "true" or "false"' }).transform((value) => value === 'true')
