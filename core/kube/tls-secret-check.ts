import { tlsPairProblem } from '../tls/tls-pair.ts'
import { isRecord, objectRef, readObject, type ReadResult } from './objects.ts'
import { TLS_SECRET_TYPE } from './secret.ts'

/**
 * What is wrong with each TLS Secret among `objects` whose certificate and key HAProxy could not
 * load together, by object. The check imports keys with WebCrypto, which is async while reading
 * and deriving are not, so it runs once where objects come in (a write's events, `hapedge
 * render`'s files), and its verdict is kept with the Secret: one found wrong is stored as invalid.
 */
export async function tlsSecretProblems(objects: Iterable<unknown>): Promise<Map<unknown, string>> {
  const problems = new Map<unknown, string>()
  const checks = [...objects].map(async (object) => {
    if (!isRecord(object) || object.kind !== 'Secret') return
    const read = readObject(object)
    // A Secret of users (auth-secret.ts) holds no certificate to check.
    if (read.status !== 'object' || read.object.kind !== 'Secret' || read.object.type !== TLS_SECRET_TYPE) return
    const problem = await tlsPairProblem(read.object.data['tls.crt'], read.object.data['tls.key'])
    if (problem !== undefined) problems.set(object, problem)
  })
  await Promise.all(checks)
  return problems
}

/** A read with the check's verdict on it: a Secret whose certificate and key HAProxy could not load is invalid, saying why. */
export function withTlsProblem(read: ReadResult, problem: string | undefined): ReadResult {
  if (problem === undefined || read.status !== 'object' || read.object.kind !== 'Secret') return read
  return { status: 'invalid', ref: objectRef(read.object), issues: [{ code: 'tls', path: '', message: problem }] }
}
