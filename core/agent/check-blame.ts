import { serviceOfBackend } from '../model/backend-ref.ts'
import { FILES, secretOfCertificateFile } from '../render/files.ts'

const QUOTED_FILE = /'([^'\s]+)'/g
const FILE_LINE = /\[([^\]\s]+):(\d+)\]/g
const BACKEND = /^backend (\S+)/

/**
 * The objects a `haproxy -c` refusal of a generation points at, as people name them: a
 * certificate file it could not load names its Secret, and a line of the backends file names the
 * Service of the backend it is in (where a Service's snippet goes). Empty when the output names
 * nothing hapedge renders from an object.
 */
export function blameFromCheck(output: string, files: ReadonlyMap<string, string>): string[] {
  const blamed = new Set<string>()
  for (const [, path = ''] of output.matchAll(QUOTED_FILE)) {
    const secret = secretOfCertificateFile(generationPath(path, files) ?? path)
    if (secret) blamed.add(`Secret ${secret}`)
  }
  for (const [, path = '', line = ''] of output.matchAll(FILE_LINE)) {
    if (generationPath(path, files) !== FILES.backends) continue
    const backend = backendAtLine(files.get(FILES.backends)!, Number(line))
    const service = backend && serviceOfBackend(backend)
    if (service) blamed.add(`Service ${service}`)
  }
  return [...blamed]
}

/** The generation's own path of a file HAProxy names (relative to the generation, or absolute under it). */
function generationPath(named: string, files: ReadonlyMap<string, string>): string | undefined {
  if (files.has(named)) return named
  for (const path of files.keys()) if (named.endsWith(`/${path}`)) return path
  return undefined
}

/** The backend whose section holds a line (1-based) of the backends file. */
function backendAtLine(text: string, line: number): string | undefined {
  const lines = text.split('\n').slice(0, line)
  for (let index = lines.length - 1; index >= 0; index--) {
    const name = BACKEND.exec(lines[index]!)?.[1]
    if (name) return name
  }
  return undefined
}
