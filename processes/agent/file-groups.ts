/** A generation's files split by where they go: top-level files, and per top-level directory the files under it (`tls` → `tls/…`). */
export function byDirectory(files: ReadonlyMap<string, string>): { top: [string, string][]; directories: Map<string, [string, string][]> } {
  const top: [string, string][] = []
  const directories = new Map<string, [string, string][]>()
  for (const entry of files) {
    const slash = entry[0].indexOf('/')
    if (slash < 0) top.push(entry)
    else {
      const name = entry[0].slice(0, slash)
      const inside = directories.get(name)
      if (inside) inside.push(entry)
      else directories.set(name, [entry])
    }
  }
  return { top, directories }
}

/**
 * Whether `inside`, the files of directory `name`, are exactly the files `previous` has under it.
 * Texts a pull kept from the generation before are the same strings, so each comparison costs
 * next to nothing.
 */
export function sameFiles(inside: readonly [string, string][], previous: ReadonlyMap<string, string>, name: string): boolean {
  if (!inside.every(([path, text]) => previous.get(path) === text)) return false
  const prefix = `${name}/`
  let count = 0
  for (const path of previous.keys()) if (path.startsWith(prefix)) count++
  return count === inside.length
}
