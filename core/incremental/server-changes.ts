import type { Backend } from '../model/derive-backend.ts'
import { EMPTY_SLOT_ADDRESS, serverAddress, slotCount } from '../render/render-backends.ts'
import { serverOptions } from '../render/render-upstream.ts'
import { type Plan, withOptions } from '../plan/plan.ts'

/**
 * The runtime commands that move a backend's servers from `before` to `after`: each changed
 * slot gets its address and state, and when the number of slots changes (a power of two is
 * crossed) the extra slots are added or deleted at runtime too, so endpoints never need a
 * reload. The files carry the same slots, so a later reload loads exactly this state.
 */
export function planServerChanges(before: Backend, after: Backend, plan: Plan): void {
  const had = slotCount(before.servers.length)
  const has = slotCount(after.servers.length)
  for (let slot = 0; slot < Math.max(had, has); slot++) {
    const server = `s${slot + 1}`
    const was = before.servers[slot]
    const now = after.servers[slot]
    const address = now ? serverAddress(now) : EMPTY_SLOT_ADDRESS
    const state = now ? 'ready' : 'maint'
    if (slot >= has) plan.servers.push({ op: 'del', backend: after.name, server })
    else if (slot >= had) plan.servers.push(withOptions({ op: 'add', backend: after.name, server, address, state }, serverOptions(after.upstream)))
    else if ((was && serverAddress(was)) !== (now && serverAddress(now))) plan.servers.push({ op: 'set', backend: after.name, server, address, state })
  }
}
