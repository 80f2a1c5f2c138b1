import { describe, expect, it } from 'vitest'
import { readObject } from '../../../core/kube/objects.ts'
import { ingress, service } from '../../support/objects.ts'

describe('reading an object', () => {
  it('reads each object once: a resync reads it where it is listed, applied and named, and gets the same read each time', () => {
    const web = service('web') as Record<string, unknown>
    const first = readObject(web)
    expect(first.status).toBe('object')
    expect(readObject(web)).toBe(first)
    // Another object, even equal to it, is read for itself.
    const copy = structuredClone(web)
    expect(readObject(copy)).not.toBe(first)
    expect(readObject(copy)).toEqual(first)
    const broken = { ...(ingress({ name: 'i1', rules: [] }) as Record<string, unknown>), spec: { rules: 'not a list' } }
    expect(readObject(broken)).toBe(readObject(broken))
    expect(readObject(broken).status).toBe('invalid')
  })
})
