import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [])),
  )
  return nested.flat()
}

const importsOf = (source: string) => [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!)

describe('core/ runs in every runtime', () => {
  it('imports no Node or platform module, only zod, @noble/hashes (pure JS) and its own files', async () => {
    const files = await sourceFiles(join(root, 'core'))
    expect(files.length).toBeGreaterThan(10)
    const offending: string[] = []
    for (const file of files) {
      const source = await readFile(file, 'utf8')
      for (const specifier of importsOf(source)) {
        if (specifier.startsWith('.') || specifier === 'zod' || specifier.startsWith('@noble/hashes/')) continue
        offending.push(`${relative(root, file)} imports ${specifier}`)
      }
      if (/\b(require|process|Buffer|__dirname)\b/.test(source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ''))) offending.push(`${relative(root, file)} uses a Node global`)
    }
    expect(offending).toEqual([])
  })

  it('never imports from functions/ (imports point functions → core only)', async () => {
    const files = await sourceFiles(join(root, 'core'))
    const upward = []
    for (const file of files) for (const specifier of importsOf(await readFile(file, 'utf8'))) if (specifier.includes('functions/')) upward.push(`${relative(root, file)} → ${specifier}`)
    expect(upward).toEqual([])
  })
})
