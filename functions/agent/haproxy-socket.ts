import { connect } from 'node:net'

export interface HaproxySocketOptions {
  /** The UNIX socket: a stats socket (`level admin` for changes) or the master CLI (`-S`). */
  path: string
  /** Milliseconds one command may take, answer included; default 10 s. */
  timeoutMs?: number
}

/** HAProxy's CLI, one connection per command in non-interactive mode (it closes after answering). */
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
 * The first words of the answers with which HAProxy 2.6 refuses a command (cli.c, map.c,
 * server.c, ssl_ckch.c): success answers are either empty or start otherwise.
 */
const REFUSALS = [
  /^Unknown /,
  /^No such /,
  /^Can't /,
  /^Cannot /,
  /^Missing /,
  /^Require /,
  /^Invalid /,
  /^Permission denied/,
  /^Map not found/,
  /^Failed/,
  /^Only servers in maintenance/,
  /^Server still has connections/,
  /^Backend must use a dynamic/,
  /^Already exists a server/,
  /^'server' ?:/,
  /^The command is too big/,
  /^Version number /,
  /^This command /,
  /^Error/,
  /\nFailed!\s*$/,
]

/** The answer is a refusal: its first line matches one of HAProxy's error forms. */
export function refusal(answer: string): boolean {
  const text = answer.replace(/^\s+/, '')
  return REFUSALS.some((pattern) => pattern.test(text))
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
  return {
    path,
    send,
    run: async (command) => checked(command, splitAnswers(await send(`${single(command)}\n`), 1)[0] ?? ''),
    async runAll(commands) {
      const answer = await send(`${commands.map(single).join(';')}\n`)
      const answers = splitAnswers(answer, commands.length)
      return commands.map((command, i) => checked(command, answers[i] ?? ''))
    },
    async runWithPayload(command, payload) {
      const body = payload.endsWith('\n') || payload === '' ? payload : `${payload}\n`
      if (/\n\n|^\n/.test(body)) throw new Error(`haproxy socket ${path}: the payload of \`${command}\` holds an empty line, which would end it early`)
      return checked(command, splitAnswers(await send(`${single(command)} <<\n${body}\n`), 1)[0] ?? '')
    },
  }
}

/** HAProxy ends each command's output with an empty line (an answer with no output is that line alone). */
function splitAnswers(answer: string, count: number): string[] {
  const answers: string[] = []
  let current = ''
  for (const line of answer.split('\n')) {
    if (answers.length === count) break
    if (line === '') {
      answers.push(current)
      current = ''
    } else current += `${line}\n`
  }
  return answers
}

function exchange(path: string, line: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path)
    const chunks: Buffer[] = []
    const command = line.split('\n', 1)[0] ?? ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`haproxy socket ${path}: \`${command}\` had no complete answer within ${timeoutMs} ms (so far: ${JSON.stringify(Buffer.concat(chunks).toString('utf8').slice(0, 200))})`))
    }, timeoutMs)
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
