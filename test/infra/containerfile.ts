import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The repository's root: the Containerfile's build context. */
export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url))

/** One instruction of a Containerfile, its continuation lines joined: `RUN npm ci …`, and the line it starts on. */
export interface Instruction {
  line: number
  keyword: string
  /** What follows the keyword, as written (shell form) or as the JSON array's text (exec form). */
  text: string
}

/** A build stage: its FROM line, the name it is given (`AS build`), and its instructions after FROM. */
export interface Stage {
  from: string
  name: string | undefined
  instructions: Instruction[]
}

/**
 * The Containerfile's instructions, as buildah and Docker read them: `\` at a line's end continues
 * it, a line starting with `#` is a comment (also inside a continued instruction), keywords are
 * case-insensitive. Parser directives and heredocs are not read: the file uses neither.
 */
export function readInstructions(source: string): Instruction[] {
  const instructions: Instruction[] = []
  let pending: { line: number; text: string } | undefined
  source.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (line.startsWith('#') || (line === '' && !pending)) return
    const continued = line.endsWith('\\')
    const text = continued ? line.slice(0, -1).trim() : line
    pending = pending ? { line: pending.line, text: `${pending.text} ${text}` } : { line: index + 1, text }
    if (continued) return
    const [keyword = '', ...rest] = pending.text.split(/\s+/)
    instructions.push({ line: pending.line, keyword: keyword.toUpperCase(), text: rest.join(' ') })
    pending = undefined
  })
  if (pending) throw new Error(`Containerfile:${pending.line}: the last instruction ends with a continuation`)
  return instructions
}

/** The ARGs before the first FROM, with their defaults, which FROM lines may name. */
export function globalArgs(instructions: Instruction[]): Map<string, string> {
  const firstFrom = instructions.findIndex(({ keyword }) => keyword === 'FROM')
  return new Map(
    instructions
      .slice(0, firstFrom)
      .filter(({ keyword }) => keyword === 'ARG')
      .map(({ text }) => {
        const [name = '', value = ''] = text.split('=')
        return [name, value]
      }),
  )
}

/** The stages, in order. */
export function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = []
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.text.split(/\s+/)
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] })
    } else stages.at(-1)?.instructions.push(instruction)
  }
  return stages
}

/** `["hapedge"]` (exec form) as its words; shell form is refused, as ENTRYPOINT and CMD in shell form go through `sh -c` and lose signals. */
export function execForm(instruction: Instruction): string[] {
  const words: unknown = JSON.parse(instruction.text)
  if (!Array.isArray(words) || !words.every((word) => typeof word === 'string')) throw new Error(`Containerfile:${instruction.line}: not an exec-form array`)
  return words
}

/** A COPY's flags (`--from=build`) and its sources and destination. */
export function copyOf(instruction: Instruction): { flags: Map<string, string>; sources: string[]; destination: string } {
  const words = instruction.text.split(/\s+/)
  const flags = new Map(
    words
      .filter((word) => word.startsWith('--'))
      .map((flag) => {
        const [name = '', value = ''] = flag.slice(2).split('=')
        return [name, value]
      }),
  )
  const paths = words.filter((word) => !word.startsWith('--'))
  const destination = paths.pop()
  if (destination === undefined || paths.length === 0) throw new Error(`Containerfile:${instruction.line}: COPY needs a source and a destination`)
  return { flags, sources: paths, destination }
}

/** The simple commands of a shell-form RUN, each as its words: `a && b | c; d` is four. Quotes and substitutions are not read: the file uses none. */
export function shellCommands(instruction: Instruction): string[][] {
  if (/["'`$]/.test(instruction.text)) throw new Error(`Containerfile:${instruction.line}: quoting or substitution the test does not read`)
  return instruction.text
    .split(/&&|\|\||;|\|/)
    .map((command) => command.trim().split(/\s+/))
    .filter((words) => words[0] !== '')
}

export const readContainerfile = (): string => readFileSync(new URL('Containerfile', `file://${REPOSITORY}`), 'utf8')
