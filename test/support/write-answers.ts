import type { WriteAnswer } from '../../core/api/write-answer.ts'

/** A whole write answer, as the function gives one, for fakes of the function: `committed` to generation `generation` unless told otherwise. */
export function writeAnswerOf(fields: Partial<WriteAnswer> & Pick<WriteAnswer, 'generation'>): WriteAnswer {
  return {
    manifest: 'a'.repeat(64),
    committed: true,
    changed: { files: 0, bytes: 0 },
    reload: false,
    reasons: [],
    rejected: [],
    warnings: [],
    warningCount: 0,
    ignored: { otherClass: 0, noDefaultClass: 0 },
    stale: 0,
    ...fields,
  }
}
