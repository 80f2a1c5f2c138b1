import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { BLOBS_IN_FLIGHT, httpSource } from '../../../processes/agent/http-source.ts'

describe('the HTTP source of an agent', () => {
  it(`asks for at most ${BLOBS_IN_FLIGHT} blobs at once, however many are read together, and answers each with its own`, async () => {
    let open = 0
    let most = 0
    const fetcher = (async (input: string | URL | Request) => {
      open++
      most = Math.max(most, open)
      await new Promise((resolve) => setTimeout(resolve, 1))
      open--
      return new Response(String(input).split('/').pop())
    }) as typeof fetch
    const source = httpSource('http://hapedge', 'prod', 'token', fetcher)
    const names = Array.from({ length: BLOBS_IN_FLIGHT * 5 }, (_, n) => `blob-${n}`)
    const keys = clusterKeys('prod')
    const read = await Promise.all(names.map((name) => source.get(keys.node('blobs', name))))
    expect(read.map((object) => new TextDecoder().decode(object!.body))).toEqual(names)
    expect(most).toBe(BLOBS_IN_FLIGHT)
  })
})
