import { join, posix, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectImports, projectRoot, sourceFiles, type Import } from './source-imports.ts'

/** The parts of hapedge, by where their files are (README, Layout). */
const PARTS = [
  ['core/', 'core'],
  ['functions/app/', 'app'],
  ['functions/platforms/', 'platform'],
  ['functions/adapters/', 'adapter'],
  ['processes/', 'process'],
  ['test/', 'test'],
  ['bench/', 'bench'],
  ['bin/', 'bin'],
] as const

type Part = (typeof PARTS)[number][1]

const partOf = (path: string): Part | undefined => PARTS.find(([prefix]) => path.startsWith(prefix))?.[1]

/** Which parts a part may not import, each rule by its name. */
const RULES: { name: string; part: Part; imports: readonly Part[] }[] = [
  { name: 'core imports no platform, adapter, app or process', part: 'core', imports: ['platform', 'adapter', 'app', 'process'] },
  {
    name: 'the app imports no platform, adapter or process (it gets its ports from the composition)',
    part: 'app',
    imports: ['platform', 'adapter', 'process'],
  },
  { name: 'adapters import no app, platform or process', part: 'adapter', imports: ['app', 'platform', 'process'] },
  { name: 'platforms import no process', part: 'platform', imports: ['process'] },
  ...(['core', 'app', 'platform', 'adapter', 'process'] as const).map((part) => ({
    name: `${part} imports no test or bench code`,
    part,
    imports: ['test', 'bench'] as const,
  })),
]

/** What the app may import from outside the project: it runs unchanged on Workers, Lambda and Node. */
const APP_PACKAGES = /^(hono|hono\/.+|zod)$/

const show = ({ from, to, specifier }: Import) => `${from} imports ${to ?? specifier}`

/** The folders of `imports` that import each other, directly or around a loop: Tarjan's strongly connected components. */
function folderCycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, Set<string>>()
  for (const { from, to } of imports) {
    const a = posix.dirname(from)
    const b = to && posix.dirname(to)
    if (!b || a === b) continue
    if (!edges.has(a)) edges.set(a, new Set())
    edges.get(a)!.add(b)
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (folder: string) => {
    index.set(folder, index.size)
    low.set(folder, index.get(folder)!)
    stack.push(folder)
    for (const next of edges.get(folder) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!))
    }
    if (low.get(folder) !== index.get(folder)) return
    const component: string[] = []
    let member: string
    do component.push((member = stack.pop()!))
    while (member !== folder)
    if (component.length > 1) cycles.push(component.sort())
  }
  for (const folder of edges.keys()) if (!index.has(folder)) visit(folder)
  return cycles
}

describe('the dependency rules between the parts', async () => {
  const imports = await projectImports(['core', 'functions', 'processes', 'bench', 'bin', 'test'])

  it('reads the imports of every part', () => {
    for (const [, part] of PARTS.filter(([, part]) => part !== 'bin'))
      expect(
        imports.some(({ from }) => partOf(from) === part),
        part,
      ).toBe(true)
  })

  it('every file under functions/ is in app/, platforms/ or adapters/', async () => {
    const files = (await sourceFiles(join(projectRoot, 'functions'))).map((file) => relative(projectRoot, file).split(sep).join('/'))
    const loose = files.filter((file) => partOf(file) === undefined)
    expect(loose).toEqual([])
  })

  for (const rule of RULES) {
    it(rule.name, () => {
      const offending = imports.filter(({ from, to }) => partOf(from) === rule.part && to !== undefined && rule.imports.includes(partOf(to)!))
      expect(offending.map(show)).toEqual([])
    })
  }

  it('the app imports no Node or platform package, only hono and zod', () => {
    const offending = imports.filter(({ from, to, specifier }) => partOf(from) === 'app' && to === undefined && !APP_PACKAGES.test(specifier))
    expect(offending.map(show)).toEqual([])
  })

  it('no folder cycle in core', () => {
    const core = imports.filter(({ from, to }) => partOf(from) === 'core' && to !== undefined && partOf(to) === 'core')
    const cycles = folderCycles(core).map((folders) => {
      const inside = core.filter(
        ({ from, to }) => folders.includes(posix.dirname(from)) && folders.includes(posix.dirname(to!)) && posix.dirname(from) !== posix.dirname(to!),
      )
      return `${folders.join(' ⇄ ')}: ${inside.map(show).join('; ')}`
    })
    expect(cycles).toEqual([])
  })
})
