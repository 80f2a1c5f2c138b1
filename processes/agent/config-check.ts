import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { checkedConfig, CheckRefused } from './master-reload.ts'

/** The HAProxy binary without a running HAProxy (an init container): it checks a generation before `current` names it. */
export interface HaproxyCheck {
  /** Throws CheckRefused when HAProxy refuses the staged generation. */
  check(generationDir: string): Promise<void>
}

const CHECK_TIMEOUT_MS = 30_000

/** `haproxy -c` on a staged generation, or undefined when `binary` does not run here (the generation is then written unchecked). */
export async function haproxyCheck(binary: string): Promise<HaproxyCheck | undefined> {
  const runs = await new Promise<boolean>((resolve) => execFile(binary, ['-v'], { timeout: CHECK_TIMEOUT_MS }, (error) => resolve(error === null)))
  if (!runs) return undefined
  return {
    // Named absolutely: `haproxy -c` runs from the generation's directory, and DIR may be relative to the agent's.
    check: (generationDir) =>
      checkedConfig(
        { binary, configs: [resolve(generationDir)], cwd: resolve(generationDir), timeoutMs: CHECK_TIMEOUT_MS },
        '`current` still names the generation before',
      ),
  }
}

/** HAProxy's words when an error is `haproxy -c` refusing the files (the same files always fail), not a failure to run or reload. */
export function refusalOutput(error: unknown): string | undefined {
  return error instanceof CheckRefused ? error.output : undefined
}
