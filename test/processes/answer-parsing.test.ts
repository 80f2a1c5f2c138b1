import { describe, expect, it } from 'vitest'
import { pullGeneration } from '../../processes/agent/pull-generation.ts'
import { statusReporter } from '../../processes/agent/report-status.ts'
import { FunctionClient } from '../../processes/forwarder/function-client.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { writeAnswerOf } from '../support/write-answers.ts'

const SOURCE = 'http://function.test'
const target = { source: SOURCE, cluster: 'prod', token: 'hpe.prod.secret' }

/** A function that answers every request with this body and status 200. */
const answering =
  (body: unknown): typeof fetch =>
  async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 })

const status = { generation: 1, manifest: 'a'.repeat(64), applied: 'reload' as const, appliedAt: new Date(0).toISOString(), lastError: null }

describe('clients read the answers with the schemas of core/api/ and refuse another shape with a message', () => {
  it('the forwarder takes a whole write answer', async () => {
    const client = new FunctionClient(target, answering(writeAnswerOf({ generation: 3 })))
    await expect(client.postEvents([])).resolves.toMatchObject({ generation: 3, committed: true })
  })

  it('the forwarder refuses a write answer without the field it needs, naming it', async () => {
    const { committed: _, ...withoutCommitted } = writeAnswerOf({ generation: 3 })
    const client = new FunctionClient(target, answering(withoutCommitted))
    await expect(client.postEvents([])).rejects.toThrow(/answer to POST .*\/events is not what this version reads: committed: /)
  })

  it('the forwarder refuses an answer that is not JSON', async () => {
    const client = new FunctionClient(target, answering('<html>a proxy page</html>'))
    await expect(client.putObjects([])).rejects.toThrow(/PUT .*\/objects is not JSON: <html>/)
  })

  it('the agent refuses a HEAD without manifest', async () => {
    const fetcher = answering({ generation: 1, snapshot: { sha256: 'b'.repeat(64), level: 0, count: 0, weight: 0 } })
    await expect(pullGeneration({ ...target, fetcher }, coldContext())).rejects.toThrow(/the function's HEAD .* is not what this version reads: manifest: /)
  })

  it('the agent refuses a report answer whose warnings are not a list of texts', async () => {
    const fetcher = answering({ ...status, pod: 'haproxy-0', reportedAt: new Date(0).toISOString(), warnings: 'no push' })
    await expect(statusReporter({ ...target, fetcher }, 'haproxy-0')(status)).rejects.toThrow(
      /answer to the report .* is not what this version reads: warnings: /,
    )
  })
})
