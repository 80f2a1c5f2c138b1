import { z } from 'zod'
import { sha256Hex } from '../syntax/sha256-hex.ts'

/** The part of an `HAProxyCfg` status an agent follows: which generation is committed, and its manifest. */
export const statusPointer = z.object({
  generation: z.number().int().min(1),
  manifest: sha256Hex,
})

export type StatusPointer = z.infer<typeof statusPointer>

/** The pointer in a resource as a watch delivers it, or undefined when it has no valid status yet. */
export function pointerOf(resource: unknown): StatusPointer | undefined {
  const status = typeof resource === 'object' && resource !== null ? (resource as { status?: unknown }).status : undefined
  const parsed = statusPointer.safeParse(status)
  return parsed.success ? { generation: parsed.data.generation, manifest: parsed.data.manifest } : undefined
}
