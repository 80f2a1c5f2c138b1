import type { Settings } from '../model/settings.ts'
import { lines } from './files.ts'
import { bodySizeDefault } from './render-body-size.ts'

/** `global` and `defaults`: what every proxy inherits. Relative paths resolve from this directory. */
export function renderGlobal(settings: Settings): string {
  return lines([
    '# Rendered by hapedge. Do not edit: the next generation replaces it.',
    'global',
    '    default-path config',
    '    ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets',
    ...bodySizeDefault(settings['proxy-body-size']),
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
  ])
}
