import { readdir, readFile } from 'node:fs/promises'
import { join, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** The TypeScript files under `dir` (absolute paths). */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [])),
  )
  return nested.flat()
}

/** The specifiers a source imports: `import … from`, `export … from`, `import '…'` and `import('…')` with a literal. */
export const importsOf = (source: string): string[] =>
  [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  )

/** One import of a source file: its path and the imported file's, from the project root (`/`-separated), or the package it names. */
export interface Import {
  from: string
  /** The imported file, for a relative specifier. */
  to?: string
  specifier: string
}

/** Every import of every source file under `folders` (paths from the project root). */
export async function projectImports(folders: readonly string[]): Promise<Import[]> {
  const imports: Import[] = []
  for (const folder of folders) {
    for (const file of await sourceFiles(join(projectRoot, folder))) {
      const from = relative(projectRoot, file).split(sep).join('/')
      for (const specifier of importsOf(await readFile(file, 'utf8'))) {
        if (!specifier.startsWith('.')) imports.push({ from, specifier })
        else imports.push({ from, to: posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\?.*$/, ''))), specifier })
      }
    }
  }
  return imports
}
