import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { WorkerEnv } from '../../functions/platforms/workers/index.ts'

process.env.WRANGLER_SEND_METRICS = 'false'
const { unstable_readConfig: readConfig } = await import('wrangler')

const WRANGLER_TOML = fileURLToPath(new URL('../../wrangler.toml', import.meta.url))

/** How each field of the Worker's environment reaches it; tsc fails here when `WorkerEnv` gains a field this does not place. */
const WORKER_ENV = {
  STORE: 'r2 bucket',
  ADMIN_TOKEN: 'secret',
  HAPEDGE_SECRET: 'secret',
  HAPEDGE_PREVIOUS_SECRET: 'secret',
  HAPEDGE_GC_KEEP: 'var',
  HAPEDGE_GC_GRACE_SECONDS: 'var',
} as const satisfies Record<keyof WorkerEnv, 'r2 bucket' | 'secret' | 'var'>

const fieldsGiven = (how: (typeof WORKER_ENV)[keyof WorkerEnv]) =>
  Object.entries(WORKER_ENV)
    .filter(([, given]) => given === how)
    .map(([name]) => name)
    .sort()

describe('wrangler.toml, as wrangler itself reads it', () => {
  const config = readConfig({ config: WRANGLER_TOML })

  it('runs functions/platforms/workers/index.ts with nodejs_compat, on a compatibility date the pinned workerd supports', () => {
    expect(config.main).toBe(fileURLToPath(new URL('../../functions/platforms/workers/index.ts', import.meta.url)))
    expect(config.compatibility_flags).toContain('nodejs_compat')
    expect(config.compatibility_date! < '2026-08-04').toBe(true)
  })

  it('binds the R2 buckets and sets the variables the Worker reads, and no others', () => {
    expect(config.r2_buckets.map(({ binding }: { binding: string }) => binding).sort()).toEqual(fieldsGiven('r2 bucket'))
    expect(Object.keys(config.vars).sort()).toEqual(fieldsGiven('var'))
    for (const [name, value] of Object.entries(config.vars)) expect(Number.isInteger(Number(value)), name).toBe(true)
  })

  it('names each secret the Worker reads and how to set it, without a value', () => {
    const text = readFileSync(WRANGLER_TOML, 'utf8')
    for (const secret of fieldsGiven('secret')) {
      expect(text).toContain(`wrangler secret put ${secret}`)
      expect(config.vars).not.toHaveProperty(secret)
    }
  })

  it('collects garbage on an hourly cron', () => {
    expect(config.triggers.crons).toEqual([expect.stringMatching(/^\d{1,2} \* \* \* \*$/)])
  })
})
