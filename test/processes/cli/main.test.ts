import { afterEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../../processes/cli/main.ts'

// A fault of hapedge's own, which no input should reach: gc stands in for any command.
vi.mock('../../../processes/cli/gc-command.ts', () => ({
  gcCommand: Object.assign(async () => Promise.reject(new Error('the marking found a node twice')), { flags: {}, example: 'hapedge gc', environment: {} }),
}))

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

describe('hapedge on an error it did not foresee', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
  })

  async function stderrOf(argv: string[]): Promise<{ code: number; stderr: string }> {
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation(
      (...parts: unknown[]) => void lines.push(parts.map((part) => (part instanceof Error ? part.stack : String(part))).join(' ')),
    )
    const code = await main(argv)
    return { code, stderr: lines.join('\n') }
  }

  it('prints its message and how to see where it came from, exit 1, without a stack', async () => {
    vi.stubEnv('HAPEDGE_DEBUG', '')
    const { code, stderr } = await stderrOf(['gc'])
    expect(code).toBe(1)
    expect(stderr).toBe('hapedge gc: the marking found a node twice\n(unexpected: set HAPEDGE_DEBUG=1 to see where it came from)')
  })

  it('prints the stack with HAPEDGE_DEBUG=1', async () => {
    vi.stubEnv('HAPEDGE_DEBUG', '1')
    const { code, stderr } = await stderrOf(['gc'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^hapedge gc: Error: the marking found a node twice\n\s+at /)
  })
})
