import type { HaproxySocket } from './haproxy-socket.ts'

/**
 * What HAProxy calls the files it loaded. The runtime API names a map or a certificate by the
 * path string the configuration gave (`show map` lists `1 (maps/hosts.map) pattern loaded from
 * file 'maps/hosts.map' …` for a relative path under `default-path config`), which need not be
 * the rendered path: a configuration loaded from elsewhere may name it absolutely.
 */
export interface LoadedFiles {
  /** HAProxy's name for the file at this rendered path, or undefined when it loaded no such file. */
  nameOf(path: string): string | undefined
  readonly names: readonly string[]
}

/** The map files the running HAProxy loaded (`show map`), with their numeric ids. */
export function loadedMaps(socket: HaproxySocket): Promise<LoadedFiles & { ids: ReadonlyMap<string, number> }> {
  return loadedPatternFiles(socket, 'show map')
}

/** The ACL files the running HAProxy loaded (`show acl` lists them as `show map` does maps; anonymous ACLs have no file). */
export function loadedAcls(socket: HaproxySocket): Promise<LoadedFiles & { ids: ReadonlyMap<string, number> }> {
  return loadedPatternFiles(socket, 'show acl')
}

async function loadedPatternFiles(socket: HaproxySocket, command: string): Promise<LoadedFiles & { ids: ReadonlyMap<string, number> }> {
  const ids = new Map<string, number>()
  for (const line of (await socket.run(command)).split('\n')) {
    const match = /^(-?\d+) \(([^)]*)\)/.exec(line)
    if (match && match[2] !== '') ids.set(match[2]!, Number(match[1]))
  }
  return { ...matcher([...ids.keys()]), ids }
}

/** The certificates the running HAProxy holds (`show ssl cert`), pending transactions left out. */
export async function loadedCertificates(socket: HaproxySocket): Promise<LoadedFiles> {
  const names: string[] = []
  let section = ''
  for (const line of (await socket.run('show ssl cert')).split('\n')) {
    if (line.startsWith('#')) section = line
    else if (line !== '' && section === '# filename') names.push(line)
  }
  return matcher(names)
}

/** The name equal to the path, else the one name that ends with `/` + the path. */
export function matcher(names: readonly string[]): LoadedFiles {
  return {
    names,
    nameOf(path) {
      if (names.includes(path)) return path
      const candidates = names.filter((name) => name.endsWith(`/${path}`))
      if (candidates.length > 1) throw new Error(`HAProxy loaded ${path} under several names: ${candidates.join(', ')}`)
      return candidates[0]
    },
  }
}

/** What the running HAProxy loaded, each kind asked once and then kept: only a reload loads other files. */
export interface LoadedNames {
  maps(): Promise<LoadedFiles>
  acls(): Promise<LoadedFiles>
  certificates(): Promise<LoadedFiles>
  /** HAProxy reloaded, or a runtime step failed: ask again next time. */
  forget(): void
}

/**
 * Remembers `show map`, `show acl` and `show ssl cert` between generations. At 20,000 Ingresses
 * HAProxy holds some 20,000 pattern lists (`show acl` answers 2.6 MB) and `show map` walks them
 * all, 2 to 30 ms on a busy machine, before every runtime change. A name it no longer holds is
 * refused by the command that uses it, and the agent then reloads, which forgets.
 */
export function loadedNames(socket: HaproxySocket): LoadedNames {
  let asked: Partial<Record<'maps' | 'acls' | 'certificates', Promise<LoadedFiles>>> = {}
  const once = (kind: keyof typeof asked, ask: () => Promise<LoadedFiles>) => {
    const kept = asked[kind]
    if (kept) return kept
    const answer = ask()
    asked[kind] = answer
    // A failed question is asked again, not remembered.
    answer.catch(() => {
      if (asked[kind] === answer) delete asked[kind]
    })
    return answer
  }
  return {
    maps: () => once('maps', () => loadedMaps(socket)),
    acls: () => once('acls', () => loadedAcls(socket)),
    certificates: () => once('certificates', () => loadedCertificates(socket)),
    forget: () => {
      asked = {}
    },
  }
}
