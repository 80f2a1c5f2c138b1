import { z } from 'zod'
import { clip } from '../clip.ts'
import { dnsSubdomain } from '../syntax/fields.ts'
import { sha256Hex } from '../syntax/sha256-hex.ts'
import { notifyUrl } from './agent-origins.ts'

/** Characters of an agent's last error that are kept (a longer one is cut, ending in `…`): every fleet answer lists it. */
export const LAST_ERROR_CHARS = 2048

/** What an agent says of itself: the generation its HAProxy runs, how it took it, and its last error. */
export const agentReport = z.strictObject({
  generation: z.number().int().min(1).nullable(),
  manifest: sha256Hex.nullable(),
  applied: z.enum(['runtime', 'reload', 'written']).nullable(),
  appliedAt: z.string().max(64).nullable(),
  /** Cut rather than refused: `haproxy -c` can say a lot, and the report is what tells the agent is alive. */
  lastError: z
    .string()
    .transform((text) => clip(text, LAST_ERROR_CHARS))
    .nullable(),
  /** Where the agent takes pushes (`POST <url>/notify`), when it listens. */
  notifyUrl: notifyUrl.nullable().optional(),
  /** A name the agent's run picks at random as it starts: the key its pushes are signed with is this run's alone. */
  instance: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, '16 to 64 base64url characters')
    .optional(),
})

export type AgentReport = z.infer<typeof agentReport>

/** An agent is named by its pod: a DNS subdomain, so it can be a storage key. */
export const podName = dnsSubdomain

export const agentKey = (clusterRoot: string, pod: string) => `${clusterRoot}agents/${pod}`
