import { blameFromCheck } from '../../core/agent/check-blame.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import type { AgentPlan } from '../../core/plan/plan.ts'
import type { TreeContext } from '../../core/tree/tree.ts'
import { generationName, oneLine, refusedLine, takenLine, type AgentLog, type Taken, type Trigger } from './agent-log.ts'
import { refusalOutput, type HaproxyCheck } from './config-check.ts'
import { EncodedMaps } from './encoded-maps.ts'
import {
  installedGeneration,
  installGeneration,
  pruneGenerations,
  recordTakenAs,
  stageGeneration,
  switchCurrent,
  type BytesOf,
  type Installed,
} from './generation-dir.ts'
import { pullGeneration, type Pulled, type SourceOptions } from './pull-generation.ts'
import type { SignedHead } from './signed-heads.ts'

/** What the agent asks of the HAProxy beside it: apply a plan at runtime, or reload after `haproxy -c` accepts the files. */
export interface HaproxyControl {
  applyRuntime(plan: AgentPlan, files: ReadonlyMap<string, string>, dir: string): Promise<void>
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
 * runs; the refusal is reported with the objects HAProxy's words point at, and that generation
 * is not tried again, while the next one is. Without a running HAProxy (an init container), a
 * generation is checked where it is staged and becomes `current` only if HAProxy accepts it.
 * Syncs never overlap: a sync asked for during one runs right after it. It says what it does in
 * one log line per generation (taken how, in how long, heard of how) and one per new error.
 */
export class Agent {
  readonly status: AgentStatus = { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }
  private running: Promise<AgentStatus> | undefined
  private again = false
  private reporting: Promise<void> | undefined
  private reportAgain = false
  /** The removal of old generations under way, if any (see prune). */
  private pruning: Promise<void> | undefined
  /** The installed generation, read from disk once at start, then kept: a poll costs a HEAD request, not a read of every file. */
  private installed: Installed | undefined
  /** The generation last pulled (and so verified): the next pull reads only the files that differ from it (from the installed one's before the first). */
  private pulled: Pulled | undefined
  private read = false
  /** The manifest of the last generation `haproxy -c` refused: the same files would fail again, so only a newer one is taken. */
  private refused: string | undefined
  /** How the sync asked for during a running one heard of a change: the next turn of the loop is on its account. */
  private againTrigger: Trigger = 'poll'
  /** The error last logged: one that persists (an unreachable function, at every poll) is said once. */
  private loggedError: string | undefined
  /** The bytes of the maps installed, which the next spliced map is written from. */
  private readonly encodedMaps = new EncodedMaps()
  /** The newest head pushed signed for this run and not yet taken: the next sync takes it as HEAD's answer, if newer than what it pulled. */
  private signed: SignedHead | undefined

  constructor(
    private readonly source: SourceOptions,
    private readonly dir: string,
    private readonly context: TreeContext,
    /** The HAProxy beside the agent; or, none running yet, the binary that checks each generation before it is written. */
    private readonly haproxy?: HaproxyControl | HaproxyCheck,
    private readonly report?: (status: AgentStatus) => Promise<void>,
    private readonly log: AgentLog = () => {},
  ) {}

  /**
   * Takes the newest generation, if there is one; `trigger` says how the agent heard of it, for the log. `signed`, a head
   * the function pushed signed for this run, is taken instead of asking for HEAD (another push, or the next poll, brings a newer one).
   */
  sync(trigger: Trigger = 'poll', signed?: SignedHead): Promise<AgentStatus> {
    if (signed && signed.generation > (this.signed?.generation ?? 0)) this.signed = signed
    if (this.running) {
      this.again = true
      this.againTrigger = trigger
      return this.running
    }
    this.running = (async () => {
      let heard = trigger
      do {
        this.again = false
        await this.syncOnce(heard).then(
          () => this.sayRecovered(),
          (error: unknown) => this.sayError((this.status.lastError = error instanceof Error ? error.message : String(error))),
        )
        heard = this.againTrigger
      } while (this.again)
      this.running = undefined
      this.sendReport()
      // A sync asked for from here on starts at once, beside the pruning; this one answers once the old generations are gone.
      await this.pruning
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

  /** A new error, on one line; the same error again (the function still unreachable at the next poll) is not repeated. */
  private sayError(message: string): void {
    if (message === this.loggedError) return
    this.loggedError = message
    this.log(`error: ${oneLine(message)}`, 'error')
  }

  /** After an error, the sync that went through says so, unless the line of the generation it took already did. */
  private sayRecovered(): void {
    if (this.loggedError === undefined || this.status.lastError !== null) return
    this.loggedError = undefined
    const running = this.status.manifest === null ? 'no generation yet' : generationName(this.status.generation ?? undefined, this.status.manifest)
    this.log(`recovered: the function answers, and ${running} is the newest`, 'info')
  }

  private async syncOnce(trigger: Trigger): Promise<void> {
    if (!this.read) {
      this.installed = await installedGeneration(this.dir)
      this.read = true
      if (this.installed) {
        // What an earlier agent (or `--once`) installed runs until a newer generation is taken: said at once, whatever the pull brings.
        Object.assign(this.status, { generation: this.installed.generation ?? null, manifest: this.installed.manifest })
        this.sendReport()
        this.log(`${generationName(this.installed.generation, this.installed.manifest)} found in ${this.dir}/current`, 'info')
      }
    }
    const installed = this.installed
    // A refused generation is the one "held" here: HEAD still naming it is nothing new.
    // Before its first pull, the agent reads from the generation it runs: a restarted agent's first change costs what it changed, not the generation.
    const signed = this.takeSigned()
    const pulled = await pullGeneration(this.source, this.context, this.refused ?? installed?.manifest, this.pulled ?? installed, signed)
    if (pulled === 'none' || pulled === 'unchanged') {
      // Nothing new to take: an earlier error is over, unless it is the refusal of the generation HEAD still names.
      if (this.refused === undefined) this.status.lastError = null
      return
    }
    this.pulled = pulled
    // The lines a pull found changed are against the generation it read from, which is not the one installed after a refusal or a rollback.
    const delta = pulled.delta?.since === installed?.manifest ? pulled.delta : undefined
    const plan = installed ? planFromFiles(installed.files, pulled.files, delta?.maps, delta?.paths) : undefined
    const started = performance.now()
    const taken = await this.take(pulled, plan, installed).catch((error: unknown) => {
      const output = refusalOutput(error)
      if (output === undefined) throw error
      this.refused = pulled.manifest
      const refusal = this.describeRefusal(pulled, output)
      this.loggedError = refusal.message
      this.log(refusal.line, 'error')
      throw new Error(refusal.message)
    })
    this.refused = undefined
    this.loggedError = undefined
    this.log(takenLine(pulled.generation, taken, Math.round(performance.now() - started), signed ? 'signed' : trigger), 'info')
    Object.assign(this.status, {
      generation: pulled.generation,
      manifest: pulled.manifest,
      applied: taken.applied,
      appliedAt: new Date().toISOString(),
      lastError: null,
    })
    await recordTakenAs(this.dir, pulled.generation, pulled.manifest)
    this.prune(pulled.manifest)
  }

  /** The signed head pushed since the last sync, when it is newer than what this run pulled; it is used once. */
  private takeSigned(): SignedHead | undefined {
    const signed = this.signed
    this.signed = undefined
    return signed && signed.generation > (this.pulled?.generation ?? this.installed?.generation ?? 0) ? signed : undefined
  }

  /**
   * Removes the generations beyond the kept ones in a lane of its own: at 20,000 Ingresses a
   * generation is some 2,000 files, and the next push's sync need not wait for them to go.
   * Pruning keeps `current` and the newest others, so it never takes what a sync beside it
   * links from, stages, or would roll back to.
   */
  private prune(current: string): void {
    const pruned = (this.pruning ?? Promise.resolve()).then(() =>
      pruneGenerations(this.dir, current).catch((error: unknown) =>
        this.sayError(`pruning old generations: ${error instanceof Error ? error.message : String(error)}`),
      ),
    )
    this.pruning = pruned
    void pruned.then(() => {
      if (this.pruning === pruned) this.pruning = undefined
    })
  }

  /**
   * What the agent reports of a refused generation: which one, the objects to blame where
   * HAProxy's words name them, and those words; and the same on one line for the log.
   */
  private describeRefusal(refused: Pulled, output: string): { message: string; line: string } {
    const blamed = blameFromCheck(output, refused.files)
    const blame = blamed.length ? `, blaming ${blamed.join(', ')}` : ''
    const running = this.installed ? 'the files before it stay current' : 'no generation is current'
    const words = output
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('[NOTICE]'))
      .join('\n')
    const manifest = refused.manifest.slice(0, 12)
    return {
      message: `haproxy -c refused generation ${refused.generation} (${manifest})${blame}; ${running}:\n${words}`,
      line: refusedLine(refused.generation, `${manifest}${blame}; ${running}`, words),
    }
  }

  /** `generation` is what `current` holds now: the next pull plans against its files, and the next splice is written from their bytes. */
  private nowInstalled(generation: Installed): void {
    this.installed = generation
    this.encodedMaps.installed(generation.files)
  }

  /**
   * How the maps `next` spliced from `previous`'s texts are written: from the bytes kept of those
   * texts (EncodedMaps). Only where the pull read from the generation installed, whose texts the splices name.
   */
  private bytesOfSplices(next: Pulled, previous: Installed | undefined): BytesOf | undefined {
    const delta = next.delta
    if (!previous || delta?.since !== previous.manifest) return undefined
    return (path, text) => {
      const parts = delta.splices.get(path)
      const before = previous.files.get(path)
      return parts && before !== undefined ? this.encodedMaps.bytesFor(path, text, before, parts) : undefined
    }
  }

  /** Installs the generation and makes HAProxy run it; on failure, the previous generation is what is installed and what runs. */
  private async take(next: Pulled, plan: AgentPlan | undefined, previous: Installed | undefined): Promise<Taken> {
    const bytesOf = this.bytesOfSplices(next, previous)
    const install = async () => {
      await installGeneration(this.dir, next.manifest, next.files, previous, bytesOf)
      this.nowInstalled(next)
    }
    if (!this.haproxy || !('checkedReload' in this.haproxy)) {
      const staged = await stageGeneration(this.dir, next.manifest, next.files, previous, bytesOf)
      await this.haproxy?.check(staged)
      await switchCurrent(this.dir, next.manifest)
      this.nowInstalled(next)
      return { applied: 'written', checked: this.haproxy !== undefined }
    }
    const runtime = plan !== undefined && !plan.reload
    let reasons = plan ? plan.reasons : ['no generation was installed before']
    if (runtime) {
      // The runtime API first, then the disk: neither needs the other, and a route is served as soon as HAProxy has it, not after the
      // files (at 20,000 Ingresses some 2,000 of them, each linked, whose completions would hold up the socket's answers). Both are done before anyone hears of it.
      const [applied] = await Promise.allSettled([this.haproxy.applyRuntime(plan, next.files, this.dir)])
      const [written] = await Promise.allSettled([install()])
      if (written.status === 'rejected') {
        // What runs may now be ahead of the files: load the files again so the two agree.
        await this.haproxy.checkedReload(this.dir)
        throw written.reason
      }
      if (applied.status === 'fulfilled') return { applied: 'runtime', plan }
      reasons = [`the runtime API failed (${applied.reason instanceof Error ? applied.reason.message : String(applied.reason)})`]
      // Fall through: a reload loads the files, which already hold the new generation.
    } else {
      await install()
    }
    try {
      await this.haproxy.checkedReload(this.dir)
      return { applied: 'reload', reasons }
    } catch (error) {
      if (previous) {
        await installGeneration(this.dir, previous.manifest, previous.files)
        this.nowInstalled(previous)
        // A runtime attempt may have changed part of what runs: reload the previous files so that what runs equals them again.
        if (runtime) await this.haproxy.checkedReload(this.dir)
      }
      throw error
    }
  }
}
