import { describe, expect, it } from 'vitest'
import { blameFromCheck } from '../../../core/agent/check-blame.ts'
import { backendName, serviceOfBackend } from '../../../core/model/backend-ref.ts'
import { certificateFile, FILES, secretOfCertificateFile } from '../../../core/render/files.ts'

/** HAProxy 2.6's own words for the refusals hapedge has met, as `haproxy -c -f DIR` prints them. */
const alert = (where: string, what: string) =>
  `[NOTICE]   (1) : haproxy version is 2.6.12\n[ALERT]    (1) : config : parsing [${where}] : ${what}\n[ALERT]    (1) : config : Fatal errors found in configuration.\n`
const backends = [
  'backend shop_web_80',
  '    timeout server 5s',
  '    server s1 10.0.0.1:8080',
  '',
  'backend shop_api_http',
  '    option forwardfor',
  '    server s1 10.0.0.2:8080',
  '',
].join('\n')
const files = new Map([
  [FILES.backends, backends],
  [FILES.frontend, 'frontend http\n'],
  ['tls/shop_shop-tls.pem', 'pem'],
  ['tls/other_other.example.com.pem', 'pem'],
])

describe('whom a refusal by haproxy -c blames', () => {
  it.each([
    [
      'a key that is not the certificate’s',
      alert(
        '/x/current/10-frontend.cfg:3',
        "'bind 127.0.0.1:8443' in section 'frontend' : 'crt-list' : inconsistencies between private key and certificate loaded 'tls/shop_shop-tls.pem'.",
      ),
      ['Secret shop/shop-tls'],
    ],
    [
      'a certificate it cannot load',
      alert('/x/.generations/abc/10-frontend.cfg:3', "'crt-list' : unable to load certificate from file 'tls/other_other.example.com.pem'."),
      ['Secret other/other.example.com'],
    ],
    ['a line of a backend', alert('/x/current/20-backends.cfg:6', "unknown option 'forwardfor'."), ['Service shop/api']],
    ['the first line of a backend', alert('/x/current/20-backends.cfg:1', 'something'), ['Service shop/web']],
    ['a line of the frontend only', alert('/x/current/10-frontend.cfg:2', 'something'), []],
    ['a file of another generation', alert('/x/current/30-other.cfg:1', "unable to load 'tls/elsewhere.pem'"), []],
  ])('%s', (_, output, blamed) => {
    expect(blameFromCheck(output, files)).toEqual(blamed)
  })

  it('reads back the names that rendering gives certificates and backends', () => {
    expect(secretOfCertificateFile(certificateFile('team-a/www.example.com'))).toBe('team-a/www.example.com')
    expect(serviceOfBackend(backendName({ namespace: 'team-a', service: 'web', port: 'http' }))).toBe('team-a/web')
    expect(serviceOfBackend('hapedge-not-found')).toBeUndefined()
    expect(secretOfCertificateFile(FILES.crtList)).toBeUndefined()
  })
})
