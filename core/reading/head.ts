import { z } from 'zod'
import { sha256Hex } from '../syntax/sha256-hex.ts'

const treeRoot = z.object({
  sha256: sha256Hex,
  level: z.number().int().min(0),
  count: z.number().int().min(0),
  weight: z.number().int().min(0),
})

/** A committed state of a cluster: a generation's manifest and the model snapshot it was made from. */
export const committedState = z.object({ manifest: sha256Hex, snapshot: treeRoot })

/**
 * Set by a rollback: the cluster serves the generation rolled back to until it is released.
 * Events are still applied and committed, to `latest`, so nothing is lost; releasing serves it.
 */
const pin = z.object({
  /** The generation whose content is served. */
  generation: z.number().int().min(1),
  since: z.string(),
  latest: committedState,
  /** Commits made to `latest` since the pin. */
  held: z.number().int().min(0),
})

/** How a generation was made when not from events: a rollback to an earlier generation, or the release of a pin. */
const origin = z.discriminatedUnion('kind', [z.object({ kind: z.literal('rollback'), to: z.number().int().min(1) }), z.object({ kind: z.literal('release') })])

/** The only mutable object of a cluster: which generation is current, and where its trees are. */
export const head = z.object({
  generation: z.number().int().min(1),
  /**
   * Counts every write of HEAD (commits, and the collector's hold and release), so no two
   * writes have the same content: an entity tag that hashes content (S3's does) never repeats,
   * and a compare-and-swap cannot be fooled by HEAD changing and changing back.
   */
  revision: z.number().int().min(1),
  /** The sha256 of the generation's manifest record (under `blobs/`). */
  manifest: sha256Hex,
  snapshot: treeRoot,
  /** The previous generation's manifest, or null for the first. */
  parent: sha256Hex.nullable(),
  /**
   * When the generation was made, and how when not from events. With these, HEAD holds all its
   * generation's record says but the plan and the files changed, which its manifest and its
   * parent's give: a record a crash kept from being written is made again from HEAD. (Absent
   * from HEADs written before they were kept here.)
   */
  committedAt: z.string().optional(),
  origin: origin.optional(),
  /**
   * Set while garbage collection deletes: writers wait until it is released or `until` passes.
   * Taking it is a compare-and-swap on HEAD, so every commit lands either before the
   * collector's marking (and is marked) or after its deletions (and re-writes what it needs).
   */
  collecting: z.object({ until: z.string() }).optional(),
  pin: pin.optional(),
})

export type Head = z.infer<typeof head>
export type CommittedState = z.infer<typeof committedState>

/** A pin as people read it (its latest state left out), or null when the cluster follows its events. */
export type PinSummary = { generation: number; since: string; held: number }

export function pinSummary(head: Head | undefined): PinSummary | null {
  const pin = head?.pin
  return pin ? { generation: pin.generation, since: pin.since, held: pin.held } : null
}

/** Where events apply: the latest state, which is what HEAD serves unless the cluster is pinned. */
export function workingState(head: Head): CommittedState {
  return head.pin?.latest ?? { manifest: head.manifest, snapshot: head.snapshot }
}

/**
 * The record of one generation, kept under `generations/<n>` after HEAD names it: what it was
 * made from and how HAProxy takes it (its plan), for agents that skipped generations, rollback and GC.
 */
export const generationRecord = head.extend({
  committedAt: z.string(),
  plan: z.object({
    reload: z.boolean(),
    reasons: z.array(z.string()),
    maps: z.array(z.object({ map: z.string(), key: z.string(), value: z.string().optional() })),
    servers: z.array(
      z.object({
        op: z.enum(['set', 'add', 'del']),
        backend: z.string(),
        server: z.string(),
        address: z.string().optional(),
        state: z.enum(['ready', 'maint']).optional(),
        options: z.string().optional(),
      }),
    ),
    certificates: z.array(z.string()),
    acls: z.array(z.object({ acl: z.string(), op: z.enum(['add', 'del']), pattern: z.string() })).optional(),
  }),
  files: z.array(z.string()),
})

export type GenerationRecord = z.infer<typeof generationRecord>

export function parseHead(text: string, key: string): Head {
  const parsed = head.safeParse(JSON.parse(text))
  if (!parsed.success) throw new Error(`${key} is not a hapedge HEAD: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  return parsed.data
}
