import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { HaproxyControl } from './agent.ts'
import { CURRENT } from './generation-dir.ts'
import { haproxySocket } from './haproxy-socket.ts'
import { loadedNames } from './loaded-files.ts'
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
 * Writes DIR/agent.cfg, which declares the admin stats socket the runtime API needs: by its
 * absolute path, since HAProxy resolves it from its own working directory, not the agent's.
 * Both `--once` and the following agent write it, so that HAProxy can start after either.
 */
export async function writeAgentConfig(dir: string, statsSocket: string): Promise<void> {
  await writeFile(join(dir, AGENT_CONFIG), `global\n    stats socket ${resolve(statsSocket)} level admin\n`)
}

/**
 * The HAProxy beside the agent, run as `haproxy -W -S <master socket> -f DIR/agent.cfg -f
 * DIR/current`: runtime changes through the admin stats socket, reloads through the master CLI
 * after `haproxy -c` accepts exactly those files.
 */
export async function haproxyControl(options: ControlOptions): Promise<HaproxyControl> {
  await writeAgentConfig(options.dir, options.statsSocket)
  // `haproxy -c` runs from DIR: the files it checks are named from anywhere.
  const configs = haproxyConfigs(resolve(options.dir))
  const stats = haproxySocket({ path: options.statsSocket })
  // The files HAProxy loaded are asked once per worker: a failed step, or a reload, asks again.
  const loaded = loadedNames(stats)
  return {
    async applyRuntime(plan, files) {
      await applyAtRuntime(stats, plan, files, { loaded }).catch((error: unknown) => {
        loaded.forget()
        throw error
      })
    },
    async checkedReload() {
      try {
        await masterReload({ masterSocket: options.masterSocket, configs, cwd: resolve(options.dir), ...(options.binary ? { binary: options.binary } : {}) })
      } finally {
        loaded.forget()
      }
    },
  }
}

/** The `-f` arguments HAProxy runs with. */
export function haproxyConfigs(dir: string): string[] {
  return [join(dir, AGENT_CONFIG), join(dir, CURRENT)]
}
