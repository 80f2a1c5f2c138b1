import { clip } from '../clip.ts'
import type { GatewayCondition } from '../kube/gateway-status.ts'
import { STATUS_LIMITS } from '../kube/haproxycfg.ts'

/** A condition as computed: its transition time is `at` (the commit's), kept by the writer where the status did not change. */
export function gatewayCondition(at: string, type: string, ok: boolean, reason: string, message: string): GatewayCondition {
  return { type, status: ok ? 'True' : 'False', reason, message: clip(message, STATUS_LIMITS.text), lastTransitionTime: at, observedGeneration: 0 }
}
