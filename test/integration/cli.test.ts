import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { corpusPath } from '../support/fixtures.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { hapedge, type Run } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { corpusFiles, filesSharingIdentities } from './corpus-identities.ts'
import { readTextTree, readTree } from './read-tree.ts'

/** The real `hapedge render` command on the shared corpus of real-world manifests. */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('hapedge render (CLI)', () => {
  let tmp: string
  let binds: string[]
  let files: string[]
  const outDir = (name: string) => join(tmp, name)
  const render = (name: string, inputs: string[]) => hapedge(['render', ...inputs, '--out', outDir(name), ...binds, '--ingress-class', 'nginx'])
  let forward: Run
  let reversed: Run

  beforeAll(async () => {
    tmp = await makeTempDir('hapedge-cli')
    binds = ['--http-bind', `127.0.0.1:${await freePort()}`, '--https-bind', `127.0.0.1:${await freePort()}`]
    files = await corpusFiles(corpusPath)
    ;[forward, reversed] = await Promise.all([
      render('forward', ['--in', corpusPath]),
      render(
        'reversed',
        [...files].reverse().flatMap((file) => ['--in', file]),
      ),
    ])
  })

  afterAll(async () => {
    if (tmp) await removeTempDir(tmp)
  })

  describe('on the corpus directory with --ingress-class nginx', () => {
    it('exits 0', () => {
      expect(forward.code, forward.stderr).toBe(0)
    })

    it('warns on stderr, one `Kind ns/name: reason` line per rejection', () => {
      // The last line counts the Ingresses of other classes, which are not rejections.
      const lines = forward.stderr.trimEnd().split('\n')
      expect(lines.pop()).toMatch(/^hapedge render: not served because of their class: \d+ Ingresses of other classes/)
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) expect(line).toMatch(/^(Ingress|Service|EndpointSlice|ConfigMap|Deployment|Pod) [^\s/]+\/[^\s:]*: \S.*$/)
      expect(lines.some((line) => line.startsWith('Ingress '))).toBe(true)
    })

    // Checked by hand against the corpus files: these Ingresses ask for class nginx and are invalid.
    it.each([
      ['014: a placeholder host', 'Ingress docker-registry/docker-registry: ', ['spec.rules[0].host', 'registry.<your domain>']],
      ['016: a placeholder host', 'Ingress kube-system/external-auth-oauth2: ', ['spec.rules[0].host', '__INGRESS_HOST__']],
      ['030: a regular expression under Prefix', 'Ingress default/test-path-regex: ', ['spec.rules[0].http.paths[0].path', '/api/v[0-9]+']],
    ])('names the Ingress and the field (%s)', (_, prefix, fragments) => {
      const line = forward.stderr.split('\n').find((candidate) => candidate.startsWith(prefix))
      expect(line, forward.stderr).toBeDefined()
      for (const fragment of fragments) expect(line).toContain(fragment)
    })

    it('does not warn about Ingresses of other classes (102-cilium.yaml asks for cilium)', () => {
      expect(forward.stderr).not.toContain('multiple-path-types')
    })

    it('writes manifest.json listing every file with its sha256 and size', async () => {
      const tree = await readTree(outDir('forward'))
      const manifest = JSON.parse(tree.get('manifest.json')!.toString('utf8')) as { version: number; files: Record<string, { sha256: string; size: number }> }
      expect(manifest.version).toBe(1)
      expect(Object.keys(manifest.files).sort()).toEqual([...tree.keys()].filter((path) => path !== 'manifest.json').sort())
      for (const [path, entry] of Object.entries(manifest.files)) {
        const bytes = tree.get(path)!
        expect(entry, path).toEqual({ sha256: sha256(bytes), size: bytes.length })
      }
    })

    it('writes a configuration that haproxy -c accepts', async () => {
      const check = await haproxyCheck(outDir('forward'))
      expect(check.ok, check.output).toBe(true)
    })
  })

  describe('input order', () => {
    it('names every object that two files define, with both files, and uses the one read last (as kubectl apply would)', async () => {
      expect(reversed.code, reversed.stderr).toBe(0)
      for (const run of [forward, reversed]) {
        expect(run.stderr).toMatch(
          /^Ingress default\/cafe-ingress: defined more than once \(.*10[57]-[^ ]+\.yaml#\d and .*10[57]-[^ ]+\.yaml#\d\); the last one read is used$/m,
        )
        expect(run.stderr).toMatch(/^Ingress default\/example-ingress: defined more than once \(.*0(05|45)-.*0(05|45)-.*\); the last one read is used$/m)
      }
    })

    it('gives byte-identical output in reverse order when no two files define the same object', async () => {
      const shared = await filesSharingIdentities(files)
      const unique = files.filter((file) => !shared.has(file))
      expect(unique.length).toBeGreaterThan(40)
      const [a, b] = await Promise.all([
        render(
          'unique-forward',
          unique.flatMap((file) => ['--in', file]),
        ),
        render(
          'unique-reversed',
          [...unique].reverse().flatMap((file) => ['--in', file]),
        ),
      ])
      expect([a.code, b.code]).toEqual([0, 0])
      expect(await readTextTree(outDir('unique-reversed'))).toEqual(await readTextTree(outDir('unique-forward')))
      expect(b.stderr).toBe(a.stderr)
    })
  })

  describe('bad invocations', () => {
    it('exits 1 naming the file, document and line of a YAML syntax error', async () => {
      const dir = join(tmp, 'yaml-error')
      await mkdir(dir)
      await writeFile(join(dir, 'a-good.yaml'), 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec: {}\n')
      // Document 2, line 10 of the file: `namespace` is indented less than `name`, its sibling.
      await writeFile(
        join(dir, 'b-bad.yaml'),
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: api\n namespace: x\nspec: {}\n',
      )
      const run = await hapedge(['render', '--in', dir, '--out', join(tmp, 'never'), ...binds])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(join(dir, 'b-bad.yaml'))
      expect(run.stderr).toMatch(/document 2, line 10\b/)
      expect(run.stderr).not.toContain('a-good.yaml')
      expect(existsSync(join(tmp, 'never')), 'nothing is written').toBe(false)
    })

    it('exits 2 without --out', async () => {
      const run = await hapedge(['render', '--in', corpusPath, ...binds])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('--out')
    })
  })
})
