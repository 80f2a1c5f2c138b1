import { Hono } from 'hono'
import type { Agent } from './agent.ts'

/** The agent's own HTTP face (`--listen`): a push from the function starts a sync; `/status` says what runs. */
export function agentApp(agent: Agent) {
  const app = new Hono()
  app.post('/notify', (c) => {
    void agent.sync('push')
    return c.json({ accepted: true }, 202)
  })
  app.get('/status', (c) => c.json(agent.status))
  app.get('/healthz', (c) => c.json({ ok: true }))
  return app
}
