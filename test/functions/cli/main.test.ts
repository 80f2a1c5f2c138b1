import { afterEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../functions/cli/main.ts'

describe('hapedge <command>', () => {
  afterEach(() => vi.restoreAllMocks())

  it('takes a name that Object.prototype holds (constructor, toString, __proto__) for an unknown command: usage, exit 2', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(await main([name]), name).toBe(2)
      expect(printed).toHaveBeenCalledWith(`hapedge: unknown command "${name}"\n`)
    }
  })
})
