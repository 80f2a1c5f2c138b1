import type { Backend, Server } from '../model/derive-backend.ts'
import { lines } from './files.ts'
import { SET_TIMEOUT_RULES } from './render-timeouts.ts'
import { serverOptions, upstreamRules } from './render-upstream.ts'

/** Where an unused slot points; it stays `disabled` (maintenance) until the runtime API fills it. */
export const EMPTY_SLOT_ADDRESS = '127.0.0.1:1'

/**
 * Server slots come in powers of two (at least two), so endpoints can scale through the
 * runtime API (`set server … addr`, `state ready`) without a reload until a backend outgrows them.
 */
export function slotCount(servers: number): number {
  let slots = 2
  while (slots < servers) slots *= 2
  return slots
}

export function serverAddress(server: Server): string {
  return server.family === 'IPv6' ? `[${server.address}]:${server.port}` : `${server.address}:${server.port}`
}

export function renderBackend(backend: Backend): string {
  const slots = slotCount(backend.servers.length)
  const rows = [`backend ${backend.name}`, ...SET_TIMEOUT_RULES, ...upstreamRules(backend.name, backend.upstream)]
  for (const line of backend.snippet ?? []) rows.push(`    ${line}`)
  const options = serverOptions(backend.upstream)
  for (let slot = 0; slot < slots; slot++) {
    const server = backend.servers[slot]
    rows.push(server ? `    server s${slot + 1} ${serverAddress(server)}${options}` : `    server s${slot + 1} ${EMPTY_SLOT_ADDRESS}${options} disabled`)
  }
  rows.push('')
  return lines(rows)
}
