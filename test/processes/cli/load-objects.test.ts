import { mkdir, mkdtemp, readdir, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError, loadObjects, MAX_FILE_BYTES, type LoadedObject } from '../../../processes/cli/load-objects.ts'
import { corpusPath } from '../../support/fixtures.ts'

const CORPUS = corpusPath

let dir = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hapedge-load-objects-'))
})

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

async function write(name: string, text: string): Promise<string> {
  const path = join(dir, name)
  await mkdir(join(path, '..'), { recursive: true })
  await writeFile(path, text)
  return path
}

/** Runs `fn`, which must throw an InputError, and returns it. */
async function inputError(fn: () => Promise<unknown>): Promise<InputError> {
  try {
    await fn()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected an InputError, but nothing was thrown')
}

function names(loaded: readonly LoadedObject[]): string[] {
  return loaded.map((l) => (l.object as { metadata: { name: string } }).metadata.name)
}

describe('loadObjects: YAML', () => {
  it('reads a multi-document stream, skips empty documents and expands a List inside it', async () => {
    const file = await write(
      'multi.yaml',
      [
        'apiVersion: v1',
        'kind: Service',
        'metadata: {name: svc}',
        '---',
        '# only a comment: an empty document',
        '---',
        'apiVersion: v1',
        'kind: List',
        'items:',
        '- apiVersion: networking.k8s.io/v1',
        '  kind: Ingress',
        '  metadata: {name: ing-a}',
        '- apiVersion: networking.k8s.io/v1',
        '  kind: IngressList',
        '  items:',
        '  - {apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: nested}}',
        '- apiVersion: networking.k8s.io/v1',
        '  kind: Ingress',
        '  metadata: {name: ing-b}',
        '---',
        '---',
        'apiVersion: networking.k8s.io/v1',
        'kind: IngressClass',
        'metadata: {name: haproxy}',
        '',
      ].join('\n'),
    )
    const loaded = await loadObjects([file])
    expect(loaded.map((l) => l.source)).toEqual([`${file}#1`, `${file}#3 items[0]`, `${file}#3 items[1].items[0]`, `${file}#3 items[2]`, `${file}#5`])
    expect(names(loaded)).toEqual(['svc', 'ing-a', 'nested', 'ing-b', 'haproxy'])
    expect(loaded[1]?.object).toEqual({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'ing-a' } })
  })

  it('treats a top-level sequence like List items, and an empty List as no objects', async () => {
    const file = await write(
      'seq.yaml',
      '- {kind: Service, metadata: {name: one}}\n- {kind: Service, metadata: {name: two}}\n---\nkind: List\napiVersion: v1\nitems: []\n',
    )
    const loaded = await loadObjects([file])
    expect(loaded.map((l) => l.source)).toEqual([`${file}#1 [0]`, `${file}#1 [1]`])
    expect(names(loaded)).toEqual(['one', 'two'])
  })

  it('keeps a *List kind without an items array as an ordinary object', async () => {
    const file = await write('not-a-list.yaml', 'apiVersion: example.com/v1\nkind: AllowList\nspec: {items: [a]}\n')
    const loaded = await loadObjects([file])
    expect(loaded).toEqual([{ object: { apiVersion: 'example.com/v1', kind: 'AllowList', spec: { items: ['a'] } }, source: `${file}#1` }])
  })

  it('reports a syntax error with the file, document number, line and column', async () => {
    const file = await write('bad.yaml', 'kind: Service\nmetadata: {name: ok}\n---\nkind: Ingress\nmetadata:\n  name: [unclosed\n  labels: {}\n')
    const error = await inputError(() => loadObjects([file]))
    expect(error.file).toBe(file)
    expect(error.field).toMatch(/^document 2, line \d+ column \d+$/)
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file)}: document 2, line \\d+ column \\d+: \\S`))
    const [, line] = /line (\d+) column/.exec(error.message) ?? []
    expect(Number(line)).toBeGreaterThanOrEqual(6) // inside the second document, which starts on line 4
  })

  it('reports the exact position of an error on a known line', async () => {
    const file = await write('reserved.yaml', 'a: 1\n---\nkind: Service\nmetadata:\n  name: x\n  @bad: 1\n')
    const error = await inputError(() => loadObjects([file]))
    expect(error.message).toBe(`${file}: document 2, line 6 column 3: Plain value cannot start with reserved character @`)
  })

  it('refuses duplicate keys rather than silently keeping one', async () => {
    const file = await write('dup.yaml', 'kind: Ingress\nkind: Service\n')
    const error = await inputError(() => loadObjects([file]))
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file)}: document 1, line 2 column 1: .*unique`))
  })

  it('rejects a scalar document, naming the file and document', async () => {
    const file = await write('scalar.yaml', 'kind: Service\nmetadata: {name: fine}\n---\njust a string\n')
    const error = await inputError(() => loadObjects([file]))
    expect(error.file).toBe(file)
    expect(error.field).toBe('document 2')
    expect(error.message).toBe(`${file}: document 2: expected a Kubernetes object (a mapping), got a string`)
  })

  it('rejects a scalar List item at its index', async () => {
    const file = await write('scalar-item.yaml', 'kind: List\napiVersion: v1\nitems:\n- {kind: Service}\n- 42\n')
    const error = await inputError(() => loadObjects([file]))
    expect(error.message).toBe(`${file}: document 1, items[1]: expected a Kubernetes object (a mapping), got a number`)
  })

  it('stops alias expansion bombs', async () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
    for (const [prev, name] of [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'f'],
    ] as const) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`)
    }
    const file = await write('laughs.yaml', `${lines.join('\n')}\n`)
    const error = await inputError(() => loadObjects([file]))
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file)}: document 1: .*alias`, 'i'))
  })

  it('resolves no custom or binary tags: values stay plain JSON data', async () => {
    const file = await write('tags.yaml', 'kind: Secret\ndata:\n  a: !!binary aGk=\n  b: !shady value\n  c: yes\n')
    const [loaded] = await loadObjects([file])
    expect(loaded?.object).toEqual({ kind: 'Secret', data: { a: 'aGk=', b: 'value', c: 'yes' } })
  })

  it('accepts flow-style YAML that starts like JSON', async () => {
    const file = await write('flow.yaml', '{kind: Ingress, metadata: {name: flow}}\n')
    const loaded = await loadObjects([file])
    expect(loaded).toEqual([{ object: { kind: 'Ingress', metadata: { name: 'flow' } }, source: `${file}#1` }])
  })
})

describe('loadObjects: JSON', () => {
  it('expands a JSON List; sources have no document number', async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' } },
        { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'b' } },
      ],
    }
    const file = await write('list.json', JSON.stringify(list, null, 2))
    const loaded = await loadObjects([file])
    expect(loaded.map((l) => l.source)).toEqual([`${file} items[0]`, `${file} items[1]`])
    expect(loaded.map((l) => l.object)).toEqual(list.items)
  })

  it('reads a single JSON object, with or without a byte-order mark', async () => {
    const file = await write('one.json', '\ufeff  {"kind": "Service", "metadata": {"name": "bom"}}')
    expect(await loadObjects([file])).toEqual([{ object: { kind: 'Service', metadata: { name: 'bom' } }, source: file }])
  })

  it('reports invalid JSON with the file name', async () => {
    const file = await write('broken.json', '{"kind": "Service",}')
    const error = await inputError(() => loadObjects([file]))
    expect(error.file).toBe(file)
    expect(error.message.startsWith(`${file}: invalid JSON: `)).toBe(true)
  })

  it('rejects a scalar JSON document', async () => {
    const file = await write('scalar.json', '"hello"')
    const error = await inputError(() => loadObjects([file]))
    expect(error.message).toBe(`${file}: expected a Kubernetes object (a mapping), got a string`)
  })

  it('reads an explicitly named file whatever its extension: JSON when it parses, YAML otherwise', async () => {
    const asJson = await write('explicit/objects.txt', '[{"kind": "Service", "metadata": {"name": "j"}}]')
    const asYaml = await write('explicit/objects', 'kind: Service\nmetadata: {name: y}\n')
    const loaded = await loadObjects([asJson, asYaml])
    expect(loaded).toEqual([
      { object: { kind: 'Service', metadata: { name: 'j' } }, source: `${asJson} [0]` },
      { object: { kind: 'Service', metadata: { name: 'y' } }, source: `${asYaml}#1` },
    ])
  })
})

describe('loadObjects: paths', () => {
  it('walks a directory tree in byte order, skipping hidden entries and other extensions', async () => {
    const root = join(dir, 'tree')
    const obj = (name: string) => `kind: ConfigMap\nmetadata: {name: ${name}}\n`
    await write('tree/b.yaml', obj('b'))
    await write('tree/a.yml', obj('a'))
    await write('tree/B.json', JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'B' } }))
    await write('tree/a/z.yaml', obj('a/z'))
    await write('tree/sub/deeper/c.yaml', obj('sub/deeper/c'))
    await write('tree/sub/deeper/d.YAML', obj('upper-case extension'))
    await write('tree/sub/README.md', 'not: an object\n')
    await write('tree/sub/notes.txt', 'kind: ConfigMap\n')
    await write('tree/sub/yaml', 'kind: ConfigMap\n')
    await write('tree/.hidden.yaml', obj('hidden'))
    await write('tree/.git/config.yaml', obj('in-hidden-dir'))
    await write('tree/sub/.secret/x.yaml', obj('in-nested-hidden-dir'))
    await symlink(root, join(root, 'sub', 'loop')) // a cycle must not walk forever
    const loaded = await loadObjects([root])
    // Byte order: 'B' (0x42) < 'a' (0x61); the directory 'a' before the file 'a.yml'.
    expect(names(loaded)).toEqual(['B', 'a/z', 'a', 'b', 'sub/deeper/c'])
    expect(loaded.map((l) => l.source)).toEqual([
      join(root, 'B.json'),
      `${join(root, 'a', 'z.yaml')}#1`,
      `${join(root, 'a.yml')}#1`,
      `${join(root, 'b.yaml')}#1`,
      `${join(root, 'sub', 'deeper', 'c.yaml')}#1`,
    ])
  })

  it('keeps the order of the paths given, and reads a hidden file named explicitly', async () => {
    const first = await write('order/.z.yaml', 'kind: ConfigMap\nmetadata: {name: first}\n')
    const second = await write('order/a.yaml', 'kind: ConfigMap\nmetadata: {name: second}\n')
    expect(names(await loadObjects([first, second]))).toEqual(['first', 'second'])
    expect(names(await loadObjects([join(dir, 'order')]))).toEqual(['second'])
  })

  it('refuses a file over 64 MiB without reading it', async () => {
    const file = await write('huge.yaml', 'kind: ConfigMap\n')
    await truncate(file, MAX_FILE_BYTES + 1) // sparse: costs no disk
    const error = await inputError(() => loadObjects([file]))
    expect(MAX_FILE_BYTES).toBe(64 * 1024 * 1024)
    expect(error.message).toBe(`${file}: file is ${MAX_FILE_BYTES + 1} bytes, more than the 64 MiB limit`)
  })

  it('returns nothing for an empty directory', async () => {
    await mkdir(join(dir, 'empty'))
    expect(await loadObjects([join(dir, 'empty')])).toEqual([])
  })

  it('reports a missing path', async () => {
    const missing = join(dir, 'does-not-exist.yaml')
    const error = await inputError(() => loadObjects([missing]))
    expect(error.message).toBe(`${missing}: no such file or directory`)
    expect(error.file).toBe(missing)
  })

  it('reports a bad file found inside a directory by its path', async () => {
    const file = await write('has-bad/nested/bad.json', '{nope')
    const error = await inputError(() => loadObjects([join(dir, 'has-bad')]))
    expect(error.file).toBe(file)
    expect(error.message.startsWith(`${file}: invalid JSON`)).toBe(true)
  })
})

describe('loadObjects: the Ingress corpus', () => {
  it('loads every file in the corpus of real-world manifests as mappings', async () => {
    const loaded = await loadObjects([CORPUS])
    expect(loaded.length).toBeGreaterThan(0)
    for (const { object, source } of loaded) {
      expect(typeof object === 'object' && object !== null && !Array.isArray(object), source).toBe(true)
    }
    // Every YAML file in the corpus contributes at least one object, and nothing else is read.
    const yamlFiles = (await readdir(CORPUS)).filter((name) => /\.ya?ml$/.test(name) && !name.startsWith('.'))
    const sourceFiles = new Set(loaded.map((l) => l.source.replace(/#.*$/, '')))
    expect([...sourceFiles].sort()).toEqual(yamlFiles.map((name) => join(CORPUS, name)).sort())
    const ingresses = loaded.filter((l) => (l.object as { kind?: unknown }).kind === 'Ingress')
    expect(ingresses.length).toBeGreaterThan(0)
  })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
