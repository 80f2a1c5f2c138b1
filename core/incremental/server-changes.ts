import type { Backend } from '../model/derive-backend.ts'
import { EMPTY_SLOT_ADDRESS, serverAddress, slotCount } from '../render/render-backends.ts'
import type { Plan } from './plan.ts'

/**
 * The runtime commands that move a backend from `before` to `after` when both have the same
 * number of server slots: each changed slot gets its address and state. Returns false when the
 * slots no longer fit, so the caller plans a reload.
 */
export function planServerChanges(before: Backend, after: Backend, plan: Plan): boolean {
  const slots = slotCount(after.servers.length)
  if (slots !== slotCount(before.servers.length)) return false
  for (let slot = 0; slot < slots; slot++) {
    const was = before.servers[slot]
    const now = after.servers[slot]
    if (was && now && serverAddress(was) === serverAddress(now)) continue
    if (!was && !now) continue
    const server = `s${slot + 1}`
    plan.servers.push(now ? { backend: after.name, server, address: serverAddress(now), state: 'ready' } : { backend: after.name, server, address: EMPTY_SLOT_ADDRESS, state: 'maint' })
  }
  return true
}
