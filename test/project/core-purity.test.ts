import { readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importsOf, projectRoot as root, sourceFiles } from './source-imports.ts'

// That core/ imports nothing from functions/ or processes/ is a rule of architecture.test.ts.
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
      if (/\b(require|process|Buffer|__dirname)\b/.test(source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
        offending.push(`${relative(root, file)} uses a Node global`)
    }
    expect(offending).toEqual([])
  })
})
