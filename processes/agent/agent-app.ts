import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { PUSH_DELTA_BYTES } from '../../core/api/push-body.ts'
import type { Agent } from './agent.ts'
import type { SignedHeads } from './signed-heads.ts'

/** A push's body: HEAD's generation and the blobs it carries, written as JSON strings (their line breaks escaped), with room. */
const PUSH_BODY_BYTES = 4 * PUSH_DELTA_BYTES

/**
 * The agent's own HTTP face (`--listen`): a push from the function starts a sync, which takes the
 * pushed head as HEAD when it is signed for this run (`signed`); `/status` says what runs.
 */
export function agentApp(agent: Agent, signed?: SignedHeads) {
  const app = new Hono()
  app.post(
    '/notify',
    bodyLimit({ maxSize: PUSH_BODY_BYTES, onError: (c) => c.json({ error: `a push's body is at most ${PUSH_BODY_BYTES} bytes` }, 413) }),
    async (c) => {
      const head = signed?.verified(await c.req.json().catch(() => undefined))
      void agent.sync('push', head)
      return c.json({ accepted: true, signed: head !== undefined }, 202)
    },
  )
  app.get('/status', (c) => c.json(agent.status))
  app.get('/healthz', (c) => c.json({ ok: true }))
  return app
}
