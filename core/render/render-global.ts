import type { Settings } from '../model/settings.ts'
import { lines } from './files.ts'
import { bodySizeDefault } from './render-body-size.ts'
import { limitStatusDefaults } from './render-limits.ts'
import { SHIPPED_LUA } from './shipped-lua.ts'

/**
 * `global` and `defaults`: what every proxy inherits, and HAProxy's Prometheus exporter when the
 * settings name a bind for it. Relative paths resolve from this directory.
 */
export function renderGlobal(settings: Settings): string {
  const protocols = settings['ssl-protocols'] ?? { min: 'TLSv1.2' }
  const optional = (key: keyof Settings, line: (value: string) => string) => (settings[key] === undefined ? [] : [`    ${line(String(settings[key]))}`])
  return lines([
    '# Rendered by hapedge. Do not edit: the next generation replaces it.',
    'global',
    '    default-path config',
    `    ssl-default-bind-options ssl-min-ver ${protocols.min}${'max' in protocols ? ` ssl-max-ver ${protocols.max}` : ''} no-tls-tickets`,
    ...optional('ssl-ciphers', (ciphers) => `ssl-default-bind-ciphers ${ciphers}`),
    ...optional('ssl-cipher-suites', (suites) => `ssl-default-bind-ciphersuites ${suites}`),
    ...optional('max-connections', (count) => `maxconn ${count}`),
    ...optional('hard-stop-after', (time) => `hard-stop-after ${time}`),
    ...optional('close-spread-time', (time) => `close-spread-time ${time}`),
    ...bodySizeDefault(settings['proxy-body-size']),
    ...limitStatusDefaults(settings),
    // Always loaded: the first Ingress asking for external authentication, or the first RequestMirror, needs no reload for
    // its script (render-external-auth.ts, render-mirror.ts).
    // lua-load, not lua-load-per-thread: the latter opens the file when the threads start, after default-path has
    // returned to the directory HAProxy was started in, so the relative path fails where the agent starts it.
    ...[...SHIPPED_LUA.keys()].map((file) => `    lua-load ${file}`),
    '',
    'defaults',
    '    mode http',
    // Only where no X-Forwarded-For is left: a trusted proxy's is kept and extended by the frontend (render-access.ts).
    '    option forwardfor if-none',
    '    option redispatch',
    '    retries 2',
    `    balance ${settings.balance}`,
    `    timeout connect ${settings['timeout-connect']}`,
    `    timeout client ${settings['timeout-client']}`,
    `    timeout server ${settings['timeout-server']}`,
    `    timeout http-request ${settings['timeout-http-request']}`,
    ...optional('timeout-tunnel', (time) => `timeout tunnel ${time}`),
    ...prometheus(settings['prometheus-bind']),
  ])
}

/** HAProxy's exporter (built into Debian's 2.6) on its own frontend: per-route traffic beside hapedge's own /metrics. */
function prometheus(bind: string | undefined): string[] {
  if (bind === undefined) return []
  return [
    '',
    'frontend hapedge-prometheus',
    `    bind ${bind}`,
    '    http-request use-service prometheus-exporter if { path /metrics }',
    '    http-request return status 404',
  ]
}
