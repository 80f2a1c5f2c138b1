import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { hostname } from 'node:os'

/**
 * A lock file names its holder as `pid host id start`. A PID alone names a process only while it
 * runs: a restarted container's server is PID 1 again, and the kernel reuses the PIDs of exited
 * processes. So the holder also carries an id drawn once per process (what tells this process
 * from an earlier one under its PID) and, where /proc says it (Linux), its process's start time
 * (what tells a live process from the one that held a PID before it).
 */
const PROCESS_ID = randomBytes(9).toString('base64url')

let ownStart: Promise<string | undefined> | undefined

/** The holder line this process writes into the lock files it takes. */
export async function thisHolder(): Promise<string> {
  return `${process.pid} ${hostname()} ${PROCESS_ID} ${(await (ownStart ??= startOf(process.pid))) ?? '-'}`
}

/**
 * Whether the process a lock file names still runs and still is the one that wrote it. A holder on
 * another host cannot be asked, and an unreadable one (a crash between create and write) is gone.
 * A lock naming this process's PID under another id is an earlier process's: never alive.
 */
export async function holderAlive(line: string): Promise<boolean> {
  const [pid, host, id, start] = line.trim().split(' ')
  const number = Number(pid)
  if (host !== hostname() || !Number.isSafeInteger(number) || number <= 0) return false
  if (number === process.pid) return id === PROCESS_ID
  const now = start && start !== '-' ? await startOf(number) : undefined
  if (now !== undefined) return now === start
  try {
    process.kill(number, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** When process `pid` started, in clock ticks since boot (`/proc/<pid>/stat`, field 22), or undefined without it. */
async function startOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
}
