import { connect } from 'node:net'

export interface HaproxySocketOptions {
  /** The UNIX socket: a stats socket (`level admin` for changes) or the master CLI (`-S`). */
  path: string
  /** Milliseconds one command may take, answer included; default 10 s. */
  timeoutMs?: number
}

/** HAProxy's CLI in non-interactive mode: one connection per line, read until HAProxy closes it. */
export interface HaproxySocket {
  readonly path: string
  /** One command's answer; an answer HAProxy gives only to refuse (see `refusal`) throws a HaproxyCliError. */
  run(command: string): Promise<string>
  /** Commands separated by `;` on one connection, their answers in order (each ends at HAProxy's empty line). */
  runAll(commands: readonly string[]): Promise<string[]>
  /** A command that takes a payload (`add map @1 m <<`, `set ssl cert f <<`); the payload holds no empty line. */
  runWithPayload(command: string, payload: string): Promise<string>
  /** The raw answer to one line, unchecked: for the master CLI, whose `reload` answers nothing and closes. */
  send(line: string): Promise<string>
}

export class HaproxyCliError extends Error {
  constructor(
    readonly socket: string,
    readonly command: string,
    readonly answer: string,
  ) {
    super(`haproxy socket ${socket}: \`${command}\` failed: ${answer.trim() || '(no answer)'}`)
    this.name = 'HaproxyCliError'
  }
}

/**
 * How HAProxy 2.6 words a refusal, as seen on 2.6.12 (`Unknown map identifier…`, `No such
 * server.`, `Version number out of range.`, `'add map' expects…`, `Invalid addr…`, `Only servers
 * in maintenance mode can be deleted.`, `Already exists a server…`, `unable to load certificate…`
 * then `Can't update <file>!`, `No ongoing transaction!`, `Permission denied`): on the first line,
 * or on any line for the certificate commands, whose refusals end with `Can't …!` or `Failed!`.
 * A success is empty or worded otherwise; the runtime steps check the wording of theirs too.
 */
const REFUSAL_FIRST_LINE =
  /^(Unknown |No such |No ongoing |Can't |Cannot |Missing |Require |Invalid |Permission denied|Map not found|Failed|unable to |Only servers |Server still has |Backend must |Already exists |Version number |The command is too big|Error|'[^'\n]+' (expects|:))/
const REFUSAL_ANY_LINE = /^(Can't .*!|Failed!)$/m

export function refusal(answer: string): boolean {
  return REFUSAL_FIRST_LINE.test(answer.trimStart()) || REFUSAL_ANY_LINE.test(answer)
}

export function haproxySocket(options: HaproxySocketOptions): HaproxySocket {
  const { path, timeoutMs = 10_000 } = options
  if (!path) throw new Error('haproxy socket: a socket path is required')
  if (!(timeoutMs > 0)) throw new Error(`haproxy socket ${path}: timeoutMs must be positive, not ${timeoutMs}`)
  const send = (line: string) => exchange(path, line, timeoutMs)
  const checked = (command: string, answer: string) => {
    if (refusal(answer)) throw new HaproxyCliError(path, command, answer)
    return answer
  }
  const single = (command: string) => {
    if (/[;\n]/.test(command)) throw new Error(`haproxy socket ${path}: one command holds no ';' or newline: ${JSON.stringify(command)}`)
    return command
  }
  const answers = (commands: readonly string[], raw: string) => {
    const split = splitAnswers(raw, commands.length)
    if (split.length < commands.length) {
      const command = commands[split.length] ?? ''
      throw new HaproxyCliError(path, command, 'HAProxy closed the connection before answering (it drops a command longer than tune.bufsize)')
    }
    return commands.map((command, i) => checked(command, split[i] ?? ''))
  }
  return {
    path,
    send,
    run: async (command) => answers([command], await send(`${single(command)}\n`))[0] ?? '',
    runAll: async (commands) => answers(commands, await send(`${commands.map(single).join(';')}\n`)),
    async runWithPayload(command, payload) {
      const body = payload.endsWith('\n') || payload === '' ? payload : `${payload}\n`
      if (/\n\n|^\n/.test(body)) throw new Error(`haproxy socket ${path}: the payload of \`${command}\` holds an empty line, which would end it early`)
      return answers([command], await send(`${single(command)} <<\n${body}\n`))[0] ?? ''
    },
  }
}

/**
 * HAProxy ends each command's output with an empty line, so an answer with no output is that
 * line alone; 2.6's `del server` leaves it out, so a last answer may end without it.
 */
function splitAnswers(raw: string, count: number): string[] {
  const answers: string[] = []
  const lines = raw.split('\n')
  const tail = lines.pop() ?? ''
  let current = ''
  for (const line of lines) {
    if (answers.length === count) break
    if (line !== '') current += `${line}\n`
    else {
      answers.push(current)
      current = ''
    }
  }
  current += tail
  if (answers.length < count && current !== '') answers.push(current)
  return answers
}

function exchange(path: string, line: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path)
    const chunks: Buffer[] = []
    const command = line.split('\n', 1)[0] ?? ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(
        new Error(
          `haproxy socket ${path}: \`${command}\` had no complete answer within ${timeoutMs} ms (so far: ${JSON.stringify(Buffer.concat(chunks).toString('utf8').slice(0, 200))})`,
        ),
      )
    }, timeoutMs)
    // Half-close after the line: the master CLI answers only then (seen on 2.6.12); the stats socket closes after one line either way.
    socket.on('connect', () => socket.end(line))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`haproxy socket ${path}: \`${command}\`: ${error.message}`, { cause: error }))
    })
    socket.on('close', (hadError) => {
      clearTimeout(timer)
      if (!hadError) resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}
