import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AGENT_CONFIG, writeAgentConfig } from '../../../processes/agent/haproxy-control.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

describe('DIR/agent.cfg', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-agent-config')))
  afterEach(() => removeTempDir(dir))

  it("names the stats socket absolutely, though DIR and the socket were given from the agent's directory: HAProxy resolves it from its own", async () => {
    const near = relative(process.cwd(), dir)
    await writeAgentConfig(near, join(near, 'stats.sock'))
    expect(await readFile(join(dir, AGENT_CONFIG), 'utf8')).toBe(`global\n    stats socket ${join(dir, 'stats.sock')} level admin\n`)
  })
})
