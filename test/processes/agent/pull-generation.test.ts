import { describe, expect, it } from 'vitest'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { pullGeneration, type Pulled } from '../../../processes/agent/pull-generation.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { endpointSlice, ingress, service, tlsSecret } from '../../support/objects.ts'
import { harness } from '../../functions/app/app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

describe('pulling a generation from the one pulled before', () => {
  async function setup() {
    const server = harness()
    const token = await server.register('prod')
    const fetched: string[] = []
    const source = server.sourceFor('prod', token, (url) => {
      if (url.includes('/blobs/')) fetched.push(url)
    })
    /** A pull from `base` with a cold cache (an agent just started, say): what it fetches is what it reads beyond HEAD's answer. */
    const pull = async (base?: Pulled, held = base?.manifest) => {
      fetched.length = 0
      const pulled = await pullGeneration(source, coldContext(), held, base)
      if (typeof pulled === 'string') throw new Error(`nothing pulled: ${pulled}`)
      return { ...pulled, fetched: fetched.length }
    }
    return { server, token, pull }
  }

  it('reads only the files that changed: the others are the texts it held', async () => {
    const { server, token, pull } = await setup()
    // Enough hosts that hosts.map is cut into chunks, which a whole read loads and joins again.
    const objects = Array.from({ length: 100 }, (_, n) => app(n + 1)).flat()
    await server.events('prod', token, objects.map(put))
    const first = await pull()
    const changed = [endpointSlice('app-2', ['10.0.0.7', '10.0.0.8'])]
    await server.events('prod', token, changed.map(put))
    const second = await pull(first)

    expect(second.files).toEqual(fullRebuild([...objects, ...changed]).files)
    // Read whole (HEAD's answer carrying the same blobs), the generation needs every file's chunks; from the first, those of the files left alone are not read.
    const whole = await pull(undefined, first.manifest)
    expect(whole.files).toEqual(second.files)
    expect(second.fetched).toBeLessThan(whole.fetched)
  })

  it('finds the files and the lines of each map that changed from the trees, which plan the change as the whole files do', async () => {
    const { server, token, pull } = await setup()
    const objects = Array.from({ length: 100 }, (_, n) => app(n + 1)).flat()
    await server.events('prod', token, objects.map(put))
    const first = await pull()
    await server.events('prod', token, [put(app(7, ['/', '/new'])[0])])
    const second = await pull(first)

    expect(second.delta?.since).toBe(first.manifest)
    expect(second.delta?.paths).toEqual([...second.files.keys()].filter((path) => second.files.get(path) !== first.files.get(path)))
    expect([...second.delta!.maps.keys()]).toEqual(
      [...second.files.keys()].filter((path) => path.startsWith('maps/') && second.files.get(path) !== first.files.get(path)),
    )
    const plan = planFromFiles(first.files, second.files, second.delta!.maps, second.delta!.paths)
    expect(plan).toEqual(planFromFiles(first.files, second.files))
    expect(plan.mapUpdates).toContainEqual(
      expect.objectContaining({ map: FILES.prefixMap, how: 'entries', add: [{ key: 'app-7.example.com/new/', value: expect.any(String) }] }),
    )
    // Read whole, a generation has no base to compare lines with.
    expect((await pull(undefined, first.manifest)).delta).toBeUndefined()
  })

  it('adds the files a change brings, in the manifest order, and drops those it removes', async () => {
    const { server, token, pull } = await setup()
    const objects = [...app(1), ...app(2)]
    await server.events('prod', token, objects.map(put))
    const first = await pull()
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const secure = [
      tlsSecret('shop-tls', certPem, keyPem),
      service('shop', [{ port: 80 }]),
      ingress({
        name: 'shop',
        rules: [{ host: 'shop.example.com', paths: [{ path: '/', service: 'shop' }] }],
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      }),
    ]
    await server.events('prod', token, secure.map(put))
    const second = await pull(first)
    const rebuilt = fullRebuild([...objects, ...secure]).files
    expect(second.files).toEqual(rebuilt)
    expect([...second.files.keys()]).toEqual([...rebuilt.keys()].sort())
    expect([...second.files.keys()].length).toBeGreaterThan(first.files.size)

    await server.events(
      'prod',
      token,
      secure.map((object) => ({ type: 'DELETED', object })),
    )
    const third = await pull(second)
    expect(third.files).toEqual(fullRebuild(objects).files)
  })
})
