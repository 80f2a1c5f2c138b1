import { planFromFiles } from '../../core/agent/plan-from-files.ts'
import type { Plan } from '../../core/incremental/plan.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { installedGeneration, installGeneration, pruneGenerations, type Installed } from './generation-dir.ts'
import { pullGeneration, type SourceOptions } from './pull-generation.ts'

/** What the agent asks of the HAProxy beside it: apply a plan at runtime, or reload after `haproxy -c` accepts the files. */
export interface HaproxyControl {
  applyRuntime(plan: Plan, files: ReadonlyMap<string, string>, dir: string): Promise<void>
  checkedReload(dir: string): Promise<void>
}

export interface AgentStatus {
  generation: number | null
  manifest: string | null
  /** How the last generation was taken: at runtime, by a reload, or written only (no HAProxy attached, `--once`). */
  applied: 'runtime' | 'reload' | 'written' | null
  appliedAt: string | null
  lastError: string | null
}

/**
 * Keeps a directory (and the HAProxy that serves it) on the cluster's newest generation: pull
 * and verify it, install it whole, then apply the difference at runtime, or by a checked
 * reload when the difference needs one or the runtime API fails. When the new files do not
 * pass the check, the previous generation is put back, so the files on disk always equal what
 * runs. Syncs never overlap: a sync asked for during one runs right after it.
 */
export class Agent {
  readonly status: AgentStatus = { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }
  private running: Promise<AgentStatus> | undefined
  private again = false
  private reporting: Promise<void> | undefined
  private reportAgain = false
  /** The installed generation, read from disk once at start, then kept: a poll costs a HEAD request, not a read of every file. */
  private installed: Installed | undefined
  private read = false

  constructor(
    private readonly source: SourceOptions,
    private readonly dir: string,
    private readonly context: TreeContext,
    private readonly haproxy?: HaproxyControl,
    private readonly report?: (status: AgentStatus) => Promise<void>,
  ) {}

  sync(): Promise<AgentStatus> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      do {
        this.again = false
        await this.syncOnce().catch((error: unknown) => {
          this.status.lastError = error instanceof Error ? error.message : String(error)
        })
      } while (this.again)
      this.running = undefined
      this.sendReport()
      return this.status
    })()
    return this.running
  }

  /** Settles when the function has been told of the newest status (or the report has failed). */
  reported(): Promise<void> {
    return this.reporting ?? Promise.resolve()
  }

  /**
   * Reports in a lane of its own: a sync asked for meanwhile (the next push) does not wait for
   * the function to store the last report. Reports made while one is on its way collapse into
   * one with the newest status; one that fails is tried again after the next sync.
   */
  private sendReport(): void {
    if (!this.report) return
    if (this.reporting) {
      this.reportAgain = true
      return
    }
    this.reporting = (async () => {
      do {
        this.reportAgain = false
        await this.report!({ ...this.status }).catch(() => undefined)
      } while (this.reportAgain)
      this.reporting = undefined
    })()
  }

  private async syncOnce(): Promise<void> {
    if (!this.read) {
      this.installed = await installedGeneration(this.dir)
      this.read = true
    }
    const installed = this.installed
    const pulled = await pullGeneration(this.source, this.context, installed?.manifest)
    if (pulled === 'none' || pulled === 'unchanged') {
      if (installed && this.status.manifest === null) Object.assign(this.status, { manifest: installed.manifest })
      return
    }
    const plan = installed ? planFromFiles(installed.files, pulled.files) : undefined
    const applied = await this.take(pulled, plan, installed)
    Object.assign(this.status, { generation: pulled.generation, manifest: pulled.manifest, applied, appliedAt: new Date().toISOString(), lastError: null })
    await pruneGenerations(this.dir, pulled.manifest)
  }

  /** Installs the generation and makes HAProxy run it; on failure, the previous generation is what is installed and what runs. */
  private async take(next: Installed, plan: Plan | undefined, previous: Installed | undefined): Promise<AgentStatus['applied']> {
    const install = async () => {
      await installGeneration(this.dir, next.manifest, next.files, previous)
      this.installed = next
    }
    if (!this.haproxy) {
      await install()
      return 'written'
    }
    const runtime = plan !== undefined && !plan.reload
    if (runtime) {
      // The disk and the runtime API take the generation side by side: neither needs the other, and both are done before anyone hears of it.
      const [written, applied] = await Promise.allSettled([install(), this.haproxy.applyRuntime(plan, next.files, this.dir)])
      if (written.status === 'rejected') {
        // What runs may now be ahead of the files: load the files again so the two agree.
        await this.haproxy.checkedReload(this.dir)
        throw written.reason
      }
      if (applied.status === 'fulfilled') return 'runtime'
      // Fall through: a reload loads the files, which already hold the new generation.
    } else {
      await install()
    }
    try {
      await this.haproxy.checkedReload(this.dir)
      return 'reload'
    } catch (error) {
      if (previous) {
        await installGeneration(this.dir, previous.manifest, previous.files)
        this.installed = previous
        // A runtime attempt may have changed part of what runs: reload the previous files so that what runs equals them again.
        if (runtime) await this.haproxy.checkedReload(this.dir)
      }
      throw error
    }
  }
}
