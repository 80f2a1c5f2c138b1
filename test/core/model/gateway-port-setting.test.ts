import { describe, expect, it } from 'vitest'
import { clusterRegistration } from '../../../core/registry/cluster-record.ts'
import { settingsPatch } from '../../../core/registry/settings-patch.ts'

const register = (gatewayPorts: unknown) => clusterRegistration.safeParse({ id: 'edge', gatewayPorts })
const problems = (gatewayPorts: unknown) => register(gatewayPorts).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? []

describe("a cluster's gatewayPorts (listener ports served on sockets of their own)", () => {
  it('are taken as the operator names them: a port, its protocol and a bind', () => {
    const ports = [
      { port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' },
      { port: 8443, protocol: 'HTTPS', bind: '[::]:8443' },
    ]
    expect(register(ports).data?.gatewayPorts).toEqual(ports)
    expect(clusterRegistration.parse({ id: 'edge' })).not.toHaveProperty('gatewayPorts')
    expect(settingsPatch.parse({ gatewayPorts: [] })).toEqual({ gatewayPorts: [] })
  })

  it('refuse the binds’ standard ports, a port or bind named twice, another protocol, a bind HAProxy would misread, and a field more', () => {
    expect(problems([{ port: 80, protocol: 'HTTP', bind: '0.0.0.0:8080' }])).toEqual(['gatewayPorts.0.port: 80 is served on the HTTP or HTTPS bind'])
    expect(
      problems([
        { port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' },
        { port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' },
      ]),
    ).toEqual(['gatewayPorts.1.port: 8080 is named twice', 'gatewayPorts.1.bind: 0.0.0.0:8080 is on a port another bind has'])
    expect(
      problems([
        { port: 8080, protocol: 'HTTP', bind: '0.0.0.0:9000' },
        { port: 8090, protocol: 'HTTP', bind: '127.0.0.1:9000' },
      ]),
    ).toEqual(['gatewayPorts.1.bind: 127.0.0.1:9000 is on a port another bind has'])
    expect(problems([{ port: 8080, protocol: 'TCP', bind: '0.0.0.0:8080' }])).toEqual(['gatewayPorts.0.protocol: must be "HTTP" or "HTTPS"'])
    expect(problems([{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:80 ssl crt /etc/passwd' }])).toEqual([
      'gatewayPorts.0.bind: port "80 ssl crt /etc/passwd" must be 1 to 65535, without leading zeros',
    ])
    expect(problems([{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080', options: 'ssl' }])).toHaveLength(1)
    expect(problems([{ port: 70000, protocol: 'HTTP', bind: '0.0.0.0:8080' }])).toEqual(['gatewayPorts.0.port: must be 1 to 65535'])
  })
})
