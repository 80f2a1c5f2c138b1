import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { loadObjects } from '../../processes/cli/load-objects.ts'
import { VALID_BINDS } from '../support/bind-addresses.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { projectRoot } from '../support/run-cli.ts'
import { removeTempDir } from '../support/temp-dir.ts'
import { renderToDir } from './serve-cluster.ts'

/** What the bind schema accepts, HAProxy takes: `haproxy -c` on the example cluster (which has a TLS host) under each. */
describe('bind addresses through haproxy -c', () => {
  let objects: unknown[]
  const dirs: string[] = []
  beforeAll(async () => void (objects = (await loadObjects([join(projectRoot, 'infra/examples')])).map(({ object }) => object)))
  afterAll(() => Promise.all(dirs.map(removeTempDir)))

  it.each(VALID_BINDS)('accepts %s on the HTTP and the HTTPS bind', async (bind) => {
    const { dir, files } = await renderToDir(objects, { httpBind: bind, httpsBind: bind })
    dirs.push(dir)
    expect(files.get(FILES.frontend)).toContain(`bind ${bind} ssl`)
    const check = await haproxyCheck(dir)
    expect(check.ok, check.output).toBe(true)
  })

  // Why the schema is strict: the two addresses of issue 16, once rendered, stop HAProxy from loading the cluster.
  it.each(['999.999.999.999:80', '[:::::]:80'])('refuses %s, as the schema does', async (bind) => {
    const { dir } = await renderToDir(objects, { httpBind: bind, httpsBind: '0.0.0.0:443' })
    dirs.push(dir)
    const check = await haproxyCheck(dir)
    expect(check.output).toMatch(/invalid address/)
    expect(check.ok).toBe(false)
  })
})
