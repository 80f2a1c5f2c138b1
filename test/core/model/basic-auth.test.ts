import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { REFUSED_BACKEND } from '../../../core/model/backend-ref.ts'
import { DEFAULT_REALM } from '../../../core/model/basic-auth.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { USERLISTS_FILE } from '../../../core/render/render-auth.ts'
import { authSecret, ingress, service } from '../../support/objects.ts'

const BCRYPT = '$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a'
const SHA512 = '$6$salt$wZU8LXJfJJqoagopbB7RuK6JEotEMZ0CQDy0phpPAuLMYQFcmf6L6BdAbs/Q7w7o1qsZ9pFqFVY4yuUSWgaYt1'
const APR1 = '$apr1$salt$X4t4GieilutI/LKL4ggXg1'

const guarded = (annotations: Record<string, string> = {}) =>
  ingress({
    name: 'admin',
    annotations: { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users', ...annotations },
    rules: [{ host: 'shop.test', paths: [{ path: '/admin', pathType: 'Prefix', service: 'web' }] }],
  })
const users = (auth: string) => authSecret('users', { auth })
const render = (...objects: unknown[]) => fullRebuild([service('web'), ...objects], { httpBind: ':80', httpsBind: ':443' })
const event = (type: WatchEvent['type'], object: unknown) => ({ type, object }) as WatchEvent

describe('basic authentication in the model', () => {
  it('writes a userlist of the users HAProxy can check and a 401 rule with the realm, and warns of each user left out', () => {
    const { files, model } = render(guarded({ 'nginx.ingress.kubernetes.io/auth-realm': 'Shop admins' }), users(`alice:${BCRYPT}\nbob:${APR1}\n`))
    expect(files.get(USERLISTS_FILE)).toBe(`userlist auth_default_users_auth-file\n    user alice password ${BCRYPT}\n`)
    expect(files.get(FILES.frontend)).toContain(
      '    http-request auth realm "Shop admins" if { var(txn.access) -m str default_admin } !{ http_auth(auth_default_users_auth-file) }',
    )
    expect(model.warnings).toEqual([
      { object: 'Ingress default/admin', annotation: 'nginx.ingress.kubernetes.io/auth-secret', reason: expect.stringMatching(/"bob".*htpasswd -B/) },
    ])
    expect(model.rejections).toEqual([])
  })

  it.each([
    ['a user name HAProxy would read as two words or a comment', `al#ice:${BCRYPT}\nbob:${SHA512}\n`, '"al#ice"'],
    ['the second line of a user (HAProxy checks the first)', `bob:${SHA512}\nbob:${BCRYPT}\n`, '"bob"'],
    ['a hash with a quote in its salt', `alice:$6$sa"lt$${SHA512.slice(-86)}\nbob:${SHA512}\n`, '"alice"'],
  ])('leaves out %s, with a warning, and writes the rest', (_, auth, user) => {
    const { files, model } = render(guarded(), users(auth))
    expect(files.get(USERLISTS_FILE)).toBe(`userlist auth_default_users_auth-file\n    user bob password ${SHA512}\n`)
    expect(model.warnings.map(({ reason }) => reason)).toEqual([expect.stringContaining(user)])
  })

  it('answers with the default realm, and a warning, for a realm that would break out of its quotes', () => {
    const { files, model } = render(guarded({ 'nginx.ingress.kubernetes.io/auth-realm': 'a" if TRUE' }), users(`alice:${BCRYPT}\n`))
    expect(files.get(FILES.frontend)).toContain(`http-request auth realm "${DEFAULT_REALM}" if`)
    expect(files.get(FILES.frontend)).not.toContain('if TRUE')
    expect(model.warnings).toEqual([expect.objectContaining({ annotation: 'nginx.ingress.kubernetes.io/auth-realm' })])
  })

  it.each([
    ['a missing Secret', [], 'Secret default/users does not exist'],
    ['a Secret without the auth key', [authSecret('users', { htpasswd: `alice:${BCRYPT}\n` })], 'the Secret has no "auth" key'],
    ['a Secret of users none of whom HAProxy can check', [users(`bob:${APR1}\n`)], 'no user whose password hash HAProxy can check'],
    [
      'an unreadable Secret',
      [{ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'users', namespace: 'default' }, data: { auth: '%%%' } }],
      'Secret default/users is invalid',
    ],
    [
      'a TLS Secret',
      [
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'kubernetes.io/tls',
          metadata: { name: 'users', namespace: 'default' },
          data: { 'tls.crt': '', 'tls.key': '' },
        },
      ],
      'kubernetes.io/tls',
    ],
  ])('refuses the Ingress for %s (503, fail closed), with the reason, and writes no userlist', (_, secrets, reason) => {
    const { files, model } = render(guarded(), ...secrets)
    expect(model.rejections).toEqual([{ object: 'Ingress default/admin', reason: expect.stringContaining(reason) }])
    expect(files.get(FILES.prefixMap)).toContain(REFUSED_BACKEND)
    expect(files.has(USERLISTS_FILE)).toBe(false)
  })

  it('keeps of a Secret of users only the keys that may hold users: anything else it holds goes no further', () => {
    const read = readObject(authSecret('users', { auth: `alice:${BCRYPT}\n`, 'db-password': 'hunter2', bob: SHA512 }))
    expect(read.status === 'object' && read.object.kind === 'Secret' ? Object.keys(read.object.data) : []).toEqual(['auth', 'bob'])
    expect(readObject(authSecret('db', { password: 'hunter2' }))).toMatchObject({ status: 'skipped' })
  })

  it('never writes a hash into a warning, a rejection or a plan', () => {
    const cluster = new LiveCluster()
    const plans = [
      cluster.apply([event('ADDED', service('web')), event('ADDED', guarded()), event('ADDED', users(`alice:${BCRYPT}\nbob:${APR1}\n`))]).plan,
      cluster.apply([event('MODIFIED', users(`alice:${SHA512}\n`))]).plan,
    ]
    const told = JSON.stringify([plans, render(guarded(), users(`alice:${BCRYPT}\nbob:${APR1}\n`)).model.warnings])
    for (const hash of [BCRYPT, SHA512, APR1]) expect(told).not.toContain(hash)
  })
})

describe('basic authentication in a change', () => {
  it("reloads for a changed user, saying which Secret's userlist changed, and refuses the Ingress when its Secret goes (a map edit)", () => {
    const cluster = new LiveCluster()
    cluster.apply([event('ADDED', service('web')), event('ADDED', guarded()), event('ADDED', users(`alice:${BCRYPT}\n`))])
    const changed = cluster.apply([event('MODIFIED', users(`alice:${BCRYPT}\nbob:${SHA512}\n`))])
    expect(changed.plan.reload).toBe(true)
    expect(changed.plan.reasons).toContain('userlist of Secret default/users changed: HAProxy 2.6 reads users only at a reload')
    expect(cluster.files().get(USERLISTS_FILE)).toContain(`user bob password ${SHA512}`)
    const gone = cluster.apply([event('DELETED', users(''))])
    expect(gone.plan.maps).toContainEqual({ map: FILES.prefixMap, key: 'shop.test/admin/', value: REFUSED_BACKEND })
    expect(cluster.files().has(USERLISTS_FILE)).toBe(false)
    expect(new SnapshotReader(cluster.current.snapshot).rejections()).toEqual([
      { object: 'Ingress default/admin', reason: expect.stringContaining('Secret default/users does not exist') },
    ])
  })
})
