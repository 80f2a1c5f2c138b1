import { describe, expect, it } from 'vitest'
import { asksForHelp, parseFlags, type FlagTable } from '../../../processes/cli/flags.ts'
import { UsageError } from '../../../processes/cli/usage-error.ts'

const flags = {
  in: { value: 'PATH', required: true, repeatable: true, description: 'input' },
  out: { value: 'DIR', required: true, description: 'output' },
  token: { value: 'TOKEN', required: true, env: 'TEST_TOKEN', description: 'secret' },
  socket: { value: 'PATH', required: { unless: 'once' }, description: 'socket' },
  poll: { value: 'DURATION', default: '5s', description: 'poll' },
  pod: { value: 'NAME', env: 'TEST_POD', description: 'pod' },
  once: { description: 'once' },
} as const satisfies FlagTable

const complete = ['--in', 'a', '--out', 'b', '--token', 't', '--socket', 's']

/** The one UsageError `parseFlags` throws, split into its problems. */
function problemsOf(args: string[], env: Record<string, string> = {}): string[] {
  try {
    parseFlags(flags, args, env)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message.split('; ')
  }
  throw new Error(`${args.join(' ')}: parsed`)
}

describe('parseFlags', () => {
  it('takes each flag given, then its environment variable, then its default; a switch is false unless given', () => {
    expect(parseFlags(flags, complete, {})).toEqual({ in: ['a'], out: 'b', token: 't', socket: 's', poll: '5s', pod: undefined, once: false })
    expect(parseFlags(flags, [...complete, '--pod', 'given'], { TEST_POD: 'from-env' }).pod).toBe('given')
    expect(parseFlags(flags, complete, { TEST_POD: 'from-env' }).pod).toBe('from-env')
    expect(parseFlags(flags, ['--in', 'a', '--out', 'b', '--once'], { TEST_TOKEN: 'env-token' })).toMatchObject({
      token: 'env-token',
      once: true,
      socket: undefined,
    })
  })

  it('gives a repeatable flag every value in order, and any other flag its last', () => {
    expect(parseFlags(flags, [...complete, '--in', 'c', '--in=d', '--poll', '1s', '--poll', '2s'], {})).toMatchObject({ in: ['a', 'c', 'd'], poll: '2s' })
  })

  it('reports every unknown flag and every missing required one in one error, unknown ones first', () => {
    expect(problemsOf(['--sauce', 'x', '--colour'])).toEqual([
      "Unknown option '--sauce'",
      "Unknown option '--colour'",
      '--in is required',
      '--out is required',
      '--token is required (or TEST_TOKEN)',
      '--socket is required (or --once)',
    ])
  })

  it('says which flag lost its value, and reads the flag that follows it as a flag', () => {
    expect(problemsOf(['--out', '--in', 'a', '--token', 't', '--once'])).toEqual(['--out needs a value (DIR)'])
    expect(problemsOf([...complete, '--poll'])).toEqual(['--poll needs a value (DURATION)'])
    expect(problemsOf([...complete, '--poll='])).toEqual(['--poll needs a value (DURATION)'])
  })

  it('refuses a value on a switch and a word that follows no flag', () => {
    expect(problemsOf([...complete, '--once=yes'])).toEqual(['--once takes no value'])
    expect(problemsOf([...complete, 'stray'])).toEqual(["unexpected argument 'stray' (every value follows its flag)"])
  })

  it('takes an empty environment variable as unset', () => {
    expect(problemsOf(['--in', 'a', '--out', 'b', '--once'], { TEST_TOKEN: '' })).toEqual(['--token is required (or TEST_TOKEN)'])
  })

  it('knows a flag only by its own name, not by what every object inherits', () => {
    expect(problemsOf([...complete, '--constructor', '--__proto__=x'])).toEqual(["Unknown option '--constructor'", "Unknown option '--__proto__'"])
  })
})

describe('asksForHelp', () => {
  it.each([['--help'], ['-h'], ['--in', 'a', '-h'], ['--sauce', '--help']])('%j asks for help', (...args) => {
    expect(asksForHelp(flags, args)).toBe(true)
  })

  it.each([[[]], [complete], [['--out', 'help']]])('%j does not', (args) => {
    expect(asksForHelp(flags, args)).toBe(false)
  })
})
