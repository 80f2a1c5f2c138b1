import { readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'

/** V8's line for one collection under `--trace-gc`: `Scavenge 4.1 (4.2) -> 3.7 (5.2) MB` (used (committed) before -> after). */
const COLLECTION = /: [A-Za-z -]+? (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) MB/

/**
 * The heap a child process (started with `--trace-gc`) uses, as V8 itself reports it at each
 * collection: the heap only grows between collections, so the largest "used before" figure of
 * a phase is its peak, read without a probe inside the process (which would add to its heap).
 */
export class TracedHeap {
  private peak = 0
  private last = 0
  private collections = 0
  private partial = ''

  constructor(output: Readable) {
    output.on('data', (chunk: Buffer) => {
      const lines = (this.partial + chunk.toString('utf8')).split('\n')
      this.partial = lines.pop()!
      for (const line of lines) this.read(line)
    })
  }

  private read(line: string): void {
    const figures = COLLECTION.exec(line)
    if (!figures) return
    this.collections++
    this.last = Number(figures[3])
    this.peak = Math.max(this.peak, Number(figures[1]))
  }

  /** Starts a phase: its peak counts from the heap the last collection left. */
  reset(): void {
    this.peak = this.last
    this.collections = 0
  }

  /** The phase's peak heap used in MB, and how many collections it was read from. */
  phase(): { peakMb: number; collections: number } {
    return { peakMb: this.peak, collections: this.collections }
  }
}

/**
 * Bytes the process `pid` handed to write() since it started (files and sockets), from
 * /proc/PID/io: Linux only, NaN elsewhere.
 */
export function writtenBytes(pid: number): number {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? Number.NaN)
  } catch {
    return Number.NaN
  }
}

/**
 * CPU seconds (user + system) the process `pid` has used since it started, from /proc/PID/stat:
 * what a phase costs on a machine whose cores others share, where wall time says little. Linux only, NaN elsewhere.
 */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid)
  return user + system
}

/**
 * The part of cpuSeconds the kernel spent for the process (system time): on local disk mostly
 * the file system's, so a jump in it between runs of the same work is the disk's state, not the code.
 */
export function systemCpuSeconds(pid: number): number {
  return cpuTimes(pid).system
}

function cpuTimes(pid: number): { user: number; system: number } {
  try {
    // The fields after the command name (which may hold spaces, so read after its closing parenthesis): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS }
  } catch {
    return { user: Number.NaN, system: Number.NaN }
  }
}

/** USER_HZ, which Linux fixes at 100 for what /proc reports. */
const CLOCK_TICKS = 100

/** The total size of the files under `root`. */
export async function directoryBytes(root: string): Promise<number> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  let total = 0
  const files = entries.filter((entry) => entry.isFile())
  for (let start = 0; start < files.length; start += 256) {
    const sizes = await Promise.all(
      files.slice(start, start + 256).map((entry) =>
        stat(join(entry.parentPath, entry.name)).then(
          (found) => found.size,
          () => 0, // removed meanwhile (a temp file renamed over its target)
        ),
      ),
    )
    for (const size of sizes) total += size
  }
  return total
}
