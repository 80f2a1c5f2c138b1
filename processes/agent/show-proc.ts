/** One process in the master CLI's `show proc`: its PID and how many reloads it went through. */
export interface Proc {
  pid: number
  reloads: number
}

export interface ProcTable {
  /** `failed` is the failed-reload count 2.6 prints beside the master's reloads (`5 [failed: 0]`). */
  master: Proc & { failed: number | undefined }
  /** The current workers (a new one starts at 0 reloads). */
  workers: Proc[]
  /** Workers of earlier generations still finishing their connections. */
  oldWorkers: Proc[]
}

const ROW = /^(\d+)\s+(\S+)\s+(\d+)(?:\s+\[failed: (\d+)\])?(?:\s|$)/

/**
 * Parses 2.6's `show proc`:
 *
 *     #<PID>          <type>          <reloads>       <uptime>        <version>
 *     18908           master          2 [failed: 1]   0d00h00m04s     2.6.12-1+deb12u4
 *     # workers
 *     18914           worker          1               0d00h00m03s     2.6.12-1+deb12u4
 *     # old workers
 *     # programs
 */
export function parseShowProc(text: string): ProcTable {
  let master: ProcTable['master'] | undefined
  const workers: Proc[] = []
  const oldWorkers: Proc[] = []
  let section = ''
  for (const line of text.split('\n')) {
    if (line.startsWith('# ')) section = line.slice(2).trim()
    const row = ROW.exec(line)
    if (!row) continue
    const proc = { pid: Number(row[1]), reloads: Number(row[3]) }
    if (row[2] === 'master') master = { ...proc, failed: row[4] === undefined ? undefined : Number(row[4]) }
    else if (section === 'workers') workers.push(proc)
    else if (section === 'old workers') oldWorkers.push(proc)
  }
  if (!master) throw new Error(`show proc names no master: ${JSON.stringify(text.slice(0, 300))}`)
  return { master, workers, oldWorkers }
}
