import { describe, expect, it } from 'vitest'
import { beginFinish, hasExpired, newSession, parseSession, SESSION_ID, sessionText } from '../../../core/resync/session.ts'

describe('a resync session’s record', () => {
  const now = new Date('2026-12-04T06:00:00Z')

  it('expires ttl after it begins, and not before', () => {
    const session = newSession(crypto.randomUUID(), now, 60_000, 500)
    expect(SESSION_ID.test(session.session)).toBe(true)
    expect(hasExpired(session, new Date(now.getTime() + 59_999))).toBe(false)
    expect(hasExpired(session, new Date(now.getTime() + 60_000))).toBe(true)
  })

  it('reads back what it stores, progress included; anything else is no record', () => {
    const session = { ...newSession(crypto.randomUUID(), now, 1000, 10), finish: beginFinish([['a', 'b'], null], ['', 'b']) }
    expect(parseSession(new TextEncoder().encode(sessionText(session)))).toEqual(session)
    expect(parseSession(new TextEncoder().encode('{"session": 1}'))).toBeUndefined()
    expect(parseSession(new TextEncoder().encode('not json'))).toBeUndefined()
  })

  it('a finish of no pages goes straight to deleting what is stored', () => {
    expect(beginFinish([], [''])).toMatchObject({ pages: 0, phase: 'stale' })
    expect(beginFinish([null], [''])).toMatchObject({ pages: 1, phase: 'apply', nextPage: 0 })
  })
})
