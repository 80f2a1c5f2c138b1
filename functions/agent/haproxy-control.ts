import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { HaproxyControl } from './agent.ts'
import { CURRENT } from './generation-dir.ts'
import { haproxySocket } from './haproxy-socket.ts'
import { masterReload } from './master-reload.ts'
import { applyAtRuntime } from './runtime-commands.ts'

/** The agent's own configuration file beside the generations: the admin stats socket the runtime API needs. */
export const AGENT_CONFIG = 'agent.cfg'

export interface ControlOptions {
  dir: string
  statsSocket: string
  masterSocket: string
  /** The HAProxy binary for `haproxy -c`; default `haproxy` from PATH. */
  binary?: string
}

/**
 * The HAProxy beside the agent, run as `haproxy -W -S <master socket> -f DIR/agent.cfg -f
 * DIR/current`: runtime changes through the admin stats socket, reloads through the master CLI
 * after `haproxy -c` accepts exactly those files.
 */
export async function haproxyControl(options: ControlOptions): Promise<HaproxyControl> {
  await writeFile(join(options.dir, AGENT_CONFIG), `global\n    stats socket ${options.statsSocket} level admin\n`)
  const configs = haproxyConfigs(options.dir)
  const stats = haproxySocket({ path: options.statsSocket })
  return {
    async applyRuntime(plan, files) {
      await applyAtRuntime(stats, plan, files)
    },
    async checkedReload() {
      await masterReload({ masterSocket: options.masterSocket, configs, cwd: options.dir, ...(options.binary ? { binary: options.binary } : {}) })
    },
  }
}

/** The `-f` arguments HAProxy runs with. */
export function haproxyConfigs(dir: string): string[] {
  return [join(dir, AGENT_CONFIG), join(dir, CURRENT)]
}
