import { describe, expect, it } from 'vitest'
import { mirrorTarget } from '../../../core/annotations/mirror-values.ts'
import type { Ingress } from '../../../core/kube/ingress.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { urlMirrorOf } from '../../../core/model/ingress-mirror.ts'
import { ingress } from '../../support/objects.ts'

describe('mirror-target', () => {
  it.each(['http://shadow.example.com$request_uri', 'https://test.env.com/$request_uri', 'http://10.0.0.9:8080/copy', 'http://[::1]:8080$request_uri'])(
    'reads %s as written',
    (url) => {
      expect(mirrorTarget.parse(url)).toBe(url)
    },
  )

  it.each([
    ['http://$request_uri', /\$request_uri may only follow the URL's host/],
    ['http://shadow.example.com$host/x', /\$host is not a variable hapedge reads in mirror-target \(only \$request_uri\)/],
    ['http://shadow.example.com/a,b', /must not hold ","/],
    ['http://user:secret@shadow.example.com/', /must not hold credentials/],
    ['http://shadow.example.com/a|b', /must be an http or https URL of printable characters/],
    ['ftp://shadow.example.com/', /must be an http or https URL/],
  ])('refuses %s, saying why', (url, reason) => {
    const read = mirrorTarget.safeParse(url)
    expect(read.success).toBe(false)
    expect(read.error?.issues[0]?.message).toMatch(reason)
  })
})

describe('an Ingress’s mirror', () => {
  /** The mirror of an Ingress with these annotations, read as the engine reads it. */
  function mirrored(annotations: Record<string, string>) {
    const read = readObject(ingress({ name: 'web', annotations, rules: [{ host: 'a.test', paths: [{ service: 'web' }] }] }))
    if (read.status !== 'object') throw new Error('the Ingress did not read')
    return urlMirrorOf(read.object as Ingress)
  }

  it("copies with the URL's host name as Host, the body included, unless the companions say otherwise", () => {
    expect(mirrored({ 'nginx.ingress.kubernetes.io/mirror-target': 'HTTP://Shadow.example.com:8080$request_uri' })).toEqual({
      url: 'http://Shadow.example.com:8080$request_uri',
      host: 'shadow.example.com',
      body: true,
    })
    expect(
      mirrored({
        'nginx.ingress.kubernetes.io/mirror-target': 'https://shadow.example.com/copy',
        'nginx.ingress.kubernetes.io/mirror-host': 'other.test',
        'nginx.ingress.kubernetes.io/mirror-request-body': 'off',
      }),
    ).toEqual({ url: 'https://shadow.example.com/copy', host: 'other.test', body: false })
    expect(mirrored({ 'nginx.ingress.kubernetes.io/mirror-host': 'other.test' })).toBeUndefined()
  })
})
