import { describe, expect, it } from 'vitest'
import { readSettings } from '../../../core/model/settings.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { renderGlobal } from '../../../core/render/render-global.ts'
import { configMap } from '../../support/objects.ts'

describe('the settings ConfigMap’s process and TLS keys', () => {
  it('ssl-protocols is the range from the lowest version named to the highest; TLSv1 is TLSv1.0', () => {
    expect(readSettings({ 'ssl-protocols': 'TLSv1.3 TLSv1.2' }).settings['ssl-protocols']).toEqual({ min: 'TLSv1.2', max: 'TLSv1.3' })
    expect(readSettings({ 'ssl-protocols': 'TLSv1 TLSv1.1' }).settings['ssl-protocols']).toEqual({ min: 'TLSv1.0', max: 'TLSv1.1' })
  })

  it('each key is one line of global or defaults, absent when not set', () => {
    const text = renderGlobal(
      readSettings({
        'ssl-protocols': 'TLSv1.2',
        'ssl-ciphers': 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256',
        'max-connections': '20000',
        'hard-stop-after': '30m',
        'close-spread-time': '10s',
        'timeout-tunnel': '1h',
      }).settings,
    )
    expect(text).toContain('    ssl-default-bind-options ssl-min-ver TLSv1.2 ssl-max-ver TLSv1.2 no-tls-tickets\n')
    expect(text).toContain('    ssl-default-bind-ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256\n')
    for (const line of ['maxconn 20000', 'hard-stop-after 30m', 'close-spread-time 10s', 'timeout tunnel 1h']) expect(text).toContain(`    ${line}\n`)
    const defaults = renderGlobal(readSettings({}).settings)
    for (const word of ['maxconn', 'hard-stop-after', 'close-spread-time', 'timeout tunnel', 'ciphers', 'prometheus', 'ssl-max-ver'])
      expect(defaults).not.toContain(word)
  })

  it('refuses what could carry configuration: a cipher list with a space, a bind that is not an address', () => {
    const { settings, issues } = readSettings({ 'ssl-ciphers': 'HIGH\n    stats enable', 'prometheus-bind': '127.0.0.1:9101 ssl crt /etc/passwd' })
    expect(settings['ssl-ciphers']).toBeUndefined()
    expect(settings['prometheus-bind']).toBeUndefined()
    expect(issues.map(({ path }) => path)).toEqual(['data["prometheus-bind"]', 'data["ssl-ciphers"]'])
  })

  it('use-proxy-protocol without proxy-real-ip-cidr stays off and says so: a PROXY header from anyone would let any client choose its address', () => {
    const { issues } = readSettings({ 'use-proxy-protocol': 'true' })
    expect(issues).toEqual([
      expect.objectContaining({ path: 'data["use-proxy-protocol"]', message: expect.stringContaining('proxy-real-ip-cidr, which is not set: it stays off') }),
    ])
    expect(fullRebuild([configMap({ 'use-proxy-protocol': 'true' })]).files.get(FILES.frontend)).not.toContain('expect-proxy')
    expect(fullRebuild([configMap({ 'use-proxy-protocol': 'true', 'proxy-real-ip-cidr': '10.0.0.0/8' })]).files.get(FILES.frontend)).toContain(
      '    tcp-request connection expect-proxy layer4 if { src 10.0.0.0/8 }\n',
    )
  })
})
