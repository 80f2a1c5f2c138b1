import { dnsLabel, objectName } from '../../core/syntax/fields.ts'
import { UsageError } from './usage-error.ts'

/** A `NAMESPACE/NAME` flag value, or a UsageError that names the flag and what it should name. */
export function namespacedName(flag: string, value: string, of = ''): { namespace: string; name: string } {
  const [namespace, name, ...rest] = value.split('/')
  if (!namespace || !name || rest.length > 0 || !dnsLabel.safeParse(namespace).success || !objectName.safeParse(name).success)
    throw new UsageError(`--${flag} ${value}: NAMESPACE/NAME${of}`)
  return { namespace, name }
}
