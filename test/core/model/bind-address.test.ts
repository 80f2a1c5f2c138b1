import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bindAddress } from '../../../core/model/bind-address.ts'
import { INVALID_BINDS, VALID_BINDS } from '../../support/bind-addresses.ts'

describe('bindAddress', () => {
  it.each(VALID_BINDS)('accepts %j', (bind) => {
    expect(bindAddress.parse(bind)).toBe(bind)
  })

  it.each(INVALID_BINDS)('refuses %j, saying why', (bind, problem) => {
    const issues = bindAddress.safeParse(bind).error?.issues
    expect(issues).toHaveLength(1)
    expect(issues![0]!.message).toMatch(problem)
  })

  it('accepts every IPv4 address in dotted decimal and every IPv6 address in brackets, in any text form', () => {
    const port = fc.integer({ min: 1, max: 65535 })
    fc.assert(fc.property(fc.ipV4(), port, (address, p) => bindAddress.safeParse(`${address}:${p}`).success))
    fc.assert(fc.property(fc.ipV6(), port, (address, p) => bindAddress.safeParse(`[${address}]:${p}`).success))
  })
})
