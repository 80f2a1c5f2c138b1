import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

export type WorkerBundle = { files: number; bytes: number; gzipBytes: number }

/** Cloudflare's limits on a Worker's gzipped upload: the free plan's and the paid plan's. */
export const WORKER_GZIP_LIMITS = { free: 3 * 1024 * 1024, paid: 10 * 1024 * 1024 }

/**
 * The Worker as `wrangler deploy --dry-run` bundles it (source maps aside, as the upload leaves
 * them out), measured on every run instead of a figure typed into the README once.
 */
export async function measureWorkerBundle(): Promise<WorkerBundle> {
  const outdir = await mkdtemp(join(tmpdir(), 'hapedge-worker-'))
  try {
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir], { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } })
    const modules = (await readdir(outdir)).filter((name) => /\.(m?js|wasm)$/.test(name))
    const bodies = await Promise.all(modules.map((name) => readFile(join(outdir, name))))
    return {
      files: modules.length,
      bytes: bodies.reduce((sum, body) => sum + body.length, 0),
      gzipBytes: bodies.reduce((sum, body) => sum + gzipSync(body).length, 0),
    }
  } finally {
    await rm(outdir, { recursive: true, force: true })
  }
}
