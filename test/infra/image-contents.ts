import { existsSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { copyOf, REPOSITORY, type Stage } from './containerfile.ts'

/** The working directory in force at a stage's instruction (WORKDIR before it; `/` without one). */
export function workdirAt(stage: Stage, index: number): string {
  let workdir = '/'
  for (const { keyword, text } of stage.instructions.slice(0, index)) if (keyword === 'WORKDIR') workdir = posix.resolve(workdir, text)
  return workdir
}

/**
 * Which repository file the image path holds just before the stage's instruction `index`, through
 * the COPYs before it: from the build context, or (`--from=<stage>`) from that earlier stage's own
 * COPYs. Undefined when no COPY put a repository file there (a file the base or a RUN made).
 */
export function repositoryFileAt(stages: Stage[], stageIndex: number, imagePath: string, index: number): string | undefined {
  const stage = stages[stageIndex]!
  // The last COPY that wrote the path wins, as in the image's layers.
  for (let at = index - 1; at >= 0; at--) {
    const instruction = stage.instructions[at]!
    if (instruction.keyword !== 'COPY') continue
    const { flags, sources, destination } = copyOf(instruction)
    const target = posix.resolve(workdirAt(stage, at), destination)
    for (const source of sources) {
      const landed = landingOf(source, target, destination.endsWith('/') || sources.length > 1)
      const rest = landed === imagePath ? '' : imagePath.startsWith(`${landed}/`) ? imagePath.slice(landed.length) : undefined
      if (rest === undefined) continue
      const from = flags.get('from')
      if (from === undefined) {
        const file = join(source, rest)
        return existsSync(join(REPOSITORY, file)) && statSync(join(REPOSITORY, file)).isFile() ? posix.normalize(file) : undefined
      }
      const fromIndex = stages.findIndex(({ name }) => name === from)
      if (fromIndex < 0 || fromIndex >= stageIndex) return undefined
      return repositoryFileAt(stages, fromIndex, posix.join(posix.resolve('/', source), rest), stages[fromIndex]!.instructions.length)
    }
  }
  return undefined
}

/** Where a COPY source lands: a directory's contents at the target; a file at the target, or inside it when the target is a directory. */
function landingOf(source: string, target: string, intoDirectory: boolean): string {
  if (source.endsWith('/')) return target
  return intoDirectory ? posix.join(target, posix.basename(source)) : target
}
