import { describe, expect, it } from 'vitest'
import { gatewayStatusAnswer, type GatewayStatusAnswer } from '../../../core/api/gateway-status-answer.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const names = (answer: GatewayStatusAnswer) =>
  answer.objects.map((object) => `${object.kind}/${'namespace' in object ? `${object.namespace}/` : ''}${object.name}`)

describe('GET …/gateway-status?since=: what changed since the generation whose status was written', () => {
  async function world() {
    const h = harness()
    const token = await h.register('prod')
    const route = (name: string, service: string) => httpRoute({ name, rules: [{ backends: [{ service }] }] })
    const objects = [...app(1), ...app(2), gatewayClass(), gateway('edge', [{ name: 'http' }]), route('shop', 'app-1'), route('blog', 'app-1')]
    expect((await h.events('prod', token, objects.map(put))).status).toBe(200)
    const read = async (query = '') => {
      const answer = await h.call('GET', `/v1/clusters/prod/gateway-status${query}`, token)
      expect(answer.status).toBe(200)
      return gatewayStatusAnswer.parse(await answer.json())
    }
    return { h, token, route, read }
  }

  it('is whole without since, and only the changed route and the routes that went with since', async () => {
    const { h, token, route, read } = await world()
    const whole = await read()
    expect(whole.removed).toBeUndefined()
    expect(names(whole).sort()).toEqual(['Gateway/default/edge', 'GatewayClass/hapedge', 'HTTPRoute/default/blog', 'HTTPRoute/default/shop'])

    // shop now names a Service that does not exist; blog goes.
    const events = [put(route('shop', 'app-9')), { type: 'DELETED', object: route('blog', 'app-1') }]
    expect((await h.events('prod', token, events)).status).toBe(200)
    const change = await read(`?since=${whole.generation}`)
    expect(change.generation).toBe(whole.generation + 1)
    expect(change.removed).toEqual(['HTTPRoute/default/blog'])
    expect(names(change)).toContain('HTTPRoute/default/shop')
    expect(names(change)).not.toContain('GatewayClass/hapedge')
    const shop = change.objects.find((object) => object.kind === 'HTTPRoute' && object.name === 'shop')
    expect(shop && 'parents' in shop && shop.parents[0]?.conditions.map((condition) => `${condition.type}/${condition.reason}`)).toEqual([
      'Accepted/Accepted',
      'ResolvedRefs/BackendNotFound',
    ])

    const nothing = await read(`?since=${change.generation}`)
    expect(nothing).toMatchObject({ generation: change.generation, controllerName: whole.controllerName, objects: [], removed: [] })
  })

  it('is whole for a generation it does not hold, and refuses one that is no generation', async () => {
    const { h, token, read } = await world()
    const ahead = await read('?since=99')
    expect(ahead.removed).toBeUndefined()
    expect(ahead.objects).toHaveLength(4)
    const refused = await h.call('GET', '/v1/clusters/prod/gateway-status?since=first', token)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: { path: 'since' } })
  })
})
