import { describe, expect, it } from 'vitest'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const json = async (response: Response) => (await response.json()) as Record<string, any>

/** Every answer that says how far an agent runs behind, and whether the cluster's agents converged. */
async function views(h: ReturnType<typeof harness>, token: string) {
  const fleet = (await json(await h.call('GET', '/v1/fleet', ADMIN))).clusters[0]
  const one = await json(await h.call('GET', '/v1/fleet/prod', ADMIN))
  const clusters = (await json(await h.call('GET', '/v1/clusters', ADMIN))).clusters[0]
  const agents = await json(await h.call('GET', '/v1/clusters/prod/agents', token))
  const status = await json(await h.call('GET', '/v1/clusters/prod/status', token))
  return {
    behind: [fleet.agents[0].behind, one.agents[0].behind, clusters.agents[0].behind, agents.agents[0].behind],
    converged: [fleet.converged, one.converged, fleet.agentsBehind === 0, one.agentsBehind === 0],
    condition: status.conditions.find((condition: { type: string }) => condition.type === 'Converged'),
  }
}

describe('an agent that runs the manifest HEAD names', () => {
  it('is converged and 0 behind everywhere, though a later generation that changed no file made HEAD', async () => {
    const h = harness()
    const token = await h.register('prod')
    const first = await json(await h.events('prod', token, app(1).map(put)))
    await h.call('POST', '/v1/clusters/prod/agents/haproxy-0', token, {
      generation: first.generation,
      manifest: first.manifest,
      applied: 'reload',
      appliedAt: null,
      lastError: null,
    })

    // An Ingress of another class changes what the cluster holds, not one file: a new generation with the same manifest.
    const unchanged = await json(
      await h.events('prod', token, [
        put(ingress({ name: 'theirs', className: 'nginx', rules: [{ host: 'theirs.example.com', paths: [{ service: 'app-1' }] }] })),
      ]),
    )
    expect(unchanged).toMatchObject({ committed: true, generation: first.generation + 1, manifest: first.manifest, changed: { files: 0 } })
    expect(await views(h, token)).toEqual({
      behind: [0, 0, 0, 0],
      converged: [true, true, true, true],
      condition: expect.objectContaining({ status: 'True', reason: 'AllPodsCurrent' }),
    })

    // A generation that changes files leaves the agent behind by the generations since the one it took.
    const changed = await json(await h.events('prod', token, app(2).map(put)))
    const behind = changed.generation - first.generation
    expect(await views(h, token)).toEqual({
      behind: [behind, behind, behind, behind],
      converged: [false, false, false, false],
      condition: expect.objectContaining({ status: 'False', reason: 'PodsBehind' }),
    })
  })
})
