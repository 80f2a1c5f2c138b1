// What the workers tests take from `cloudflare:test`, declared here so the project's one tsconfig
// (Node and DOM types) checks them without @cloudflare/workers-types, whose globals clash with DOM's.
declare module 'cloudflare:test' {
  import type { R2BucketBinding } from '../../functions/adapters/storage/r2-store.ts'
  export const env: { STORE: R2BucketBinding; ADMIN_TOKEN: string; HAPEDGE_GC_KEEP?: string; HAPEDGE_GC_GRACE_SECONDS?: string }
  export const SELF: { fetch(input: string | Request, init?: RequestInit): Promise<Response> }
  export function createExecutionContext(): { waitUntil(promise: Promise<unknown>): void }
  export function waitOnExecutionContext(ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<void>
  export function createScheduledController(options?: { scheduledTime?: Date | number; cron?: string }): unknown
}
