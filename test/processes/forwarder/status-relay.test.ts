import { describe, expect, it } from 'vitest'
import type { GatewayStatusAnswer } from '../../../core/api/gateway-status-answer.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../../../core/kube/gateway-status.ts'
import type { HAProxyCfgStatus } from '../../../core/kube/haproxycfg.ts'
import type { ClusterWriter } from '../../../core/ports/cluster-writer.ts'
import { StatusRelay } from '../../../processes/forwarder/status-relay.ts'

const route = (name: string) => ({ kind: 'HTTPRoute' as const, namespace: 'default', name, parents: [] })

/**
 * The forwarder's `--write-status` asks the function only for what changed since the generation
 * whose Gateway API status it wrote, and asks from the same generation again after a failure.
 */
describe('StatusRelay and the Gateway API status', () => {
  function relay(answers: GatewayStatusAnswer[], failures: string[][]) {
    const asked: (number | undefined)[] = []
    const given: (GatewayApiStatus | GatewayStatusChange)[] = []
    const source = {
      status: async () => ({ generation: 1 }) as unknown as HAProxyCfgStatus,
      gatewayStatus: async (since?: number) => {
        asked.push(since)
        return answers.shift()!
      },
    }
    const writer: ClusterWriter = {
      writeStatus: async () => ({ outcome: 'written', generation: 1, attempts: 1, created: false }),
      recordRejections: async () => ({ created: 0, repeated: 0, skipped: 0, errors: [] }),
      writeGatewayStatus: async (status) => {
        given.push(status)
        return { written: status.objects.length, unchanged: 0, missing: 0, errors: failures.shift() ?? [] }
      },
    }
    const log: string[] = []
    const relaying = new StatusRelay(source, writer, { namespace: 'hapedge', name: 'edge' }, (line) => log.push(line))
    const commit = async () => {
      relaying.committed()
      await relaying.settled()
    }
    return { asked, given, log, commit }
  }

  it('asks whole first, then since the generation written; a failed write is asked again from the same one', async () => {
    const answers: GatewayStatusAnswer[] = [
      { generation: 3, controllerName: 'c', objects: [route('a'), route('b')] },
      { generation: 4, controllerName: 'c', objects: [route('a')], removed: ['HTTPRoute/default/b'] },
      { generation: 5, controllerName: 'c', objects: [route('a')], removed: ['HTTPRoute/default/b'] },
      { generation: 5, controllerName: 'c', objects: [], removed: [] },
    ]
    const { asked, given, log, commit } = relay(answers, [[], ['HTTPRoute default/a: 409'], []])
    for (let i = 0; i < 4; i++) await commit()
    expect(asked).toEqual([undefined, 3, 3, 5])
    expect(given.map((status) => ('removed' in status ? status.removed : 'whole'))).toEqual(['whole', ['HTTPRoute/default/b'], ['HTTPRoute/default/b']])
    expect(given.every((status) => !('generation' in status))).toBe(true)
    expect(log).toEqual(['Gateway API status not written: HTTPRoute default/a: 409'])
  })
})
