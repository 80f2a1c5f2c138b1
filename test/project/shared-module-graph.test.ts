import { readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OWN_MODULE_GRAPH } from '../support/own-module-graph.ts'
import { projectRoot, sourceFiles } from './source-imports.ts'

/** A call that swaps a module for a stand-in: it takes effect only on modules evaluated after it. */
const MOCKS_A_MODULE = /\bvi\.(mock|doMock)\(/

describe('test files in a shared module graph', () => {
  it('mock no module unless they are listed in OWN_MODULE_GRAPH (run each in a graph of its own)', async () => {
    const mocking: string[] = []
    for (const file of await sourceFiles(join(projectRoot, 'test'))) {
      if (file.endsWith('.test.ts') && MOCKS_A_MODULE.test(await readFile(file, 'utf8'))) mocking.push(relative(projectRoot, file).split(sep).join('/'))
    }
    expect(mocking.sort()).toEqual([...OWN_MODULE_GRAPH].sort())
  })
})
