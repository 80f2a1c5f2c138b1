import { expect } from 'vitest'

/** What `promise` rejects with, checked to be an instance of `type`, so a test can look at its fields. */
export async function rejection<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(thrown).toBeInstanceOf(type)
  return thrown as T
}
