import { expect } from 'vitest'
import { StorageError } from '../../../core/ports/object-store.ts'

/** The StorageError that `call` must reject with. */
export async function storageError(call: Promise<unknown>): Promise<StorageError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(StorageError)
  return error as StorageError
}
