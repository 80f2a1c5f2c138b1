import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, posix } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { main } from '../../processes/cli/main.ts'
import { importsOf, projectImports } from '../project/source-imports.ts'
import { copyOf, execForm, globalArgs, type Instruction, readContainerfile, readInstructions, REPOSITORY, shellCommands, stagesOf } from './containerfile.ts'
import { HAPEDGE_IMAGE, IMAGE_COMMANDS, packageJson } from './hapedge-image.ts'
import { repositoryFileAt, workdirAt } from './image-contents.ts'
import { infraYamlFiles, readManifests } from './infra-files.ts'
import { containersOf, podTemplates } from './pod-templates.ts'

const instructions = readInstructions(readContainerfile())
const stages = stagesOf(instructions)
const final = stages.at(-1)!
const finalIndex = stages.length - 1
const { bin } = packageJson

/** Programs the base image has (Debian bookworm with Node.js and npm): the real build (infra/image/build-from-debian.sh) runs them. */
const BASE_PROGRAMS = new Set(['apt-get', 'rm', 'groupadd', 'useradd', 'ln', 'node', 'npm'])

/** Every shell command the file RUNs, with its stage and the instruction's index there. */
const runs = stages.flatMap((stage, stageIndex) =>
  stage.instructions.flatMap((instruction, index) =>
    instruction.keyword === 'RUN' ? shellCommands(instruction).map((words) => ({ stage, stageIndex, index, instruction, words })) : [],
  ),
)
const where = (instruction: Instruction) => `Containerfile:${instruction.line}`

/** `hapedge <args>` run in this process, as the image's entrypoint would: its exit code, its output kept quiet. */
async function runHapedge(args: string[]): Promise<number> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    return await main(args)
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}

describe('the Containerfile', () => {
  it('builds in stages from one Node base: a build stage installs, the final stage copies what it made', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2)
    const base = globalArgs(instructions)
    for (const stage of stages) expect(stage.from).toMatch(/^\$\{(\w+)\}$/)
    const argument = /^\$\{(\w+)\}$/.exec(final.from)![1]!
    expect(base.get(argument)).toMatch(/node:20(\.\d+)*-bookworm/)
    expect(stages.slice(0, -1).every(({ name }) => name !== undefined)).toBe(true)
    expect(final.instructions.some(({ keyword, text }) => keyword === 'COPY' && copyOf({ keyword, text, line: 0 }).flags.has('from'))).toBe(true)
  })

  it('installs the production dependencies only, as the lock file pins them, and installs nothing in the final stage', () => {
    const installs = runs.filter(({ words }) => words[0] === 'npm' && ['ci', 'install', 'i'].includes(words[1]!))
    expect(installs.length).toBeGreaterThan(0)
    for (const { words, stage, stageIndex, index, instruction } of installs) {
      expect(words[1], where(instruction)).toBe('ci')
      expect(words, where(instruction)).toContain('--omit=dev')
      expect(stage, where(instruction)).not.toBe(final)
      for (const file of ['package.json', 'package-lock.json'])
        expect(repositoryFileAt(stages, stageIndex, posix.join(workdirAt(stage, index), file), index), `${where(instruction)}: ${file}`).toBe(file)
    }
  })

  it('copies only paths that exist in the repository, and from earlier stages only', () => {
    const copies = stages.flatMap((stage, stageIndex) =>
      stage.instructions.filter(({ keyword }) => keyword === 'COPY' || keyword === 'ADD').map((instruction) => ({ instruction, stageIndex })),
    )
    expect(copies.length).toBeGreaterThan(0)
    for (const { instruction, stageIndex } of copies) {
      expect(instruction.keyword, where(instruction)).toBe('COPY')
      const { flags, sources } = copyOf(instruction)
      const from = flags.get('from')
      if (from === undefined) for (const source of sources) expect(existsSync(join(REPOSITORY, source)), `${where(instruction)}: ${source}`).toBe(true)
      else
        expect(
          stages.findIndex(({ name }) => name === from),
          where(instruction),
        ).toBeLessThan(stageIndex)
    }
  })

  it("runs only commands that exist: the package's own through its bin, npm's with the scripts they name, the base image's", async () => {
    expect(runs.length).toBeGreaterThan(0)
    for (const { words, stageIndex, stage, index, instruction } of runs) {
      const [program, ...args] = words as [string, ...string[]]
      expect(BASE_PROGRAMS, `${where(instruction)}: ${program}`).toContain(program)
      if (program === 'npm' && args[0] === 'run') expect(Object.keys(packageJson.scripts), where(instruction)).toContain(args[1])
      if (program === 'node') {
        const [script, ...scriptArgs] = args
        const file = repositoryFileAt(stages, stageIndex, posix.resolve(workdirAt(stage, index), script!), index)
        expect(file, `${where(instruction)}: ${script} is copied in`).toBeDefined()
        expect(Object.values(bin), where(instruction)).toContain(file)
        expect(await runHapedge(scriptArgs), `${where(instruction)}: hapedge ${scriptArgs.join(' ')}`).toBe(0)
      }
      if (program === 'ln') {
        const [flag, target, link] = args
        expect(flag, where(instruction)).toBe('-s')
        expect(repositoryFileAt(stages, stageIndex, target!, index), `${where(instruction)}: ${target}`).toBe(bin[posix.basename(link!)])
      }
    }
    // Loading serve, forward and agent compiles most of the sources.
  }, 60_000)

  it('holds every source file the bin imports, and every package they import is a production dependency', async () => {
    const entry = Object.values(bin)[0]!
    const imports = await projectImports(['bin', 'core', 'functions', 'processes'])
    const binImports = importsOf(readFileSync(join(REPOSITORY, entry), 'utf8')).map((specifier) =>
      specifier.startsWith('.') ? { from: entry, to: posix.join(posix.dirname(entry), specifier), specifier } : { from: entry, specifier },
    )
    const reached = new Set([entry])
    const packages = new Set<string>()
    const pending = [...binImports]
    while (pending.length > 0) {
      const { to, specifier } = pending.pop()!
      if (to === undefined) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!)
      else if (!reached.has(to)) {
        reached.add(to)
        pending.push(...imports.filter(({ from }) => from === to))
      }
    }
    const entryInImage = runs.find(({ stage, words }) => stage === final && words[0] === 'ln')!.words[2]!
    const root = entryInImage.slice(0, -entry.length)
    expect(reached.size).toBeGreaterThan(1)
    for (const file of reached) expect(repositoryFileAt(stages, finalIndex, posix.join(root, file), final.instructions.length), file).toBe(file)
    const builtIn = new Set(builtinModules)
    const needed = [...packages].filter((name) => !name.startsWith('node:') && !builtIn.has(name)).sort()
    expect(needed.length).toBeGreaterThan(0)
    expect(Object.keys(packageJson.dependencies)).toEqual(expect.arrayContaining(needed))
  })

  it("enters through the package's bin, linked onto PATH, and its default command succeeds", async () => {
    const entrypoints = final.instructions.filter(({ keyword }) => keyword === 'ENTRYPOINT')
    expect(entrypoints).toHaveLength(1)
    const [command] = execForm(entrypoints[0]!)
    const linked = runs.some(({ stage, words }) => stage === final && words[0] === 'ln' && words[3] === `/usr/local/bin/${command}`)
    expect(linked, `${command} on PATH`).toBe(true)
    expect(Object.keys(bin)).toContain(command)
    const cmd = final.instructions.filter(({ keyword }) => keyword === 'CMD')
    expect(await runHapedge(cmd.length > 0 ? execForm(cmd.at(-1)!) : [])).toBe(0)
  })

  it('runs as a numeric non-root user, the one the manifests run as', () => {
    const users = final.instructions.filter(({ keyword }) => keyword === 'USER')
    const [uid, gid] = users.at(-1)!.text.split(':')
    expect(Number(uid)).toBeGreaterThan(0)
    expect(String(Number(uid))).toBe(uid)
    const objects = readManifests(infraYamlFiles().filter((path) => path.startsWith('cluster/'))).map(({ object }) => object)
    for (const { key, spec } of podTemplates(objects)) expect(spec.securityContext, key).toMatchObject({ runAsUser: Number(uid), runAsGroup: Number(gid) })
  })

  it('installs the haproxy the agent checks with, from the same Debian as the base', () => {
    const installed = runs
      .filter(({ stage, words }) => stage === final && words[0] === 'apt-get' && words[1] === 'install')
      .flatMap(({ words }) => words.slice(2))
    expect(installed).toContain('haproxy')
    expect(installed.filter((word) => !word.startsWith('-'))).toEqual(['haproxy'])
  })
})

describe('the manifests under infra/cluster/ and the image', () => {
  const objects = readManifests(infraYamlFiles().filter((path) => path.startsWith('cluster/'))).map(({ object }) => object)
  const containers = podTemplates(objects).flatMap(({ key, spec }) => containersOf(spec).map((container) => ({ key, container })))

  it("name the Containerfile's image, tagged with the package's version, for every container, HAProxy's too", () => {
    expect(containers.length).toBeGreaterThan(0)
    for (const { key, container } of containers) expect(container.image, `${key} ${container.name}`).toBe(HAPEDGE_IMAGE)
  })

  it('run only commands the image has', () => {
    for (const { key, container } of containers) expect(IMAGE_COMMANDS, `${key} ${container.name}`).toContain(container.command?.[0])
  })
})
