import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

export interface Run {
  code: number
  stdout: string
  stderr: string
}

/** Runs the real `hapedge` command (bin/hapedge.js) from the project root; `env` is added to this process's environment (undefined unsets). */
export function hapedge(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/hapedge.js', ...args], { cwd: projectRoot, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr })
    })
  })
}
