import { Hono } from 'hono'

/**
 * The one HTTP app every platform runs. Today it answers liveness; the cluster routes of the
 * design's Interfaces table (registration, events, audit, resync, head, blobs) come with the
 * storage layer they need.
 */
export function createApp() {
  const app = new Hono()
  app.get('/healthz', (c) => c.json({ ok: true }))
  return app
}
