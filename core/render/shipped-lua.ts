import { EXTERNAL_AUTH_LUA } from './external-auth-lua.ts'
import { MIRROR_LUA } from './mirror-lua.ts'
import { EXTERNAL_AUTH_LUA_FILE } from './render-external-auth.ts'
import { MIRROR_LUA_FILE } from './render-mirror.ts'

/**
 * The Lua scripts every generation ships and `global` loads, by file (relative to the configuration
 * directory): the same for every cluster, so only a new hapedge changes them (a reload), and a
 * route asking for what they do is a map edit.
 */
export const SHIPPED_LUA: ReadonlyMap<string, string> = new Map([
  [EXTERNAL_AUTH_LUA_FILE, EXTERNAL_AUTH_LUA],
  [MIRROR_LUA_FILE, MIRROR_LUA],
])
