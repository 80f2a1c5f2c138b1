import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mapSteps, mapUpdate, mapUpdateFromLines, MAX_ENTRY_LOOKUPS, type MapStep, type MapUpdate } from '../../../core/plan/map-updates.ts'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import { FILES } from '../../../core/render/files.ts'
import { runs } from '../../support/property-runs.ts'

const mapFile = (entries: Iterable<readonly [string, string]>): string => [...entries].map(([key, value]) => `${key} ${value}\n`).join('')
const paths = (count: number, backend = 'web'): [string, string][] =>
  Array.from({ length: count }, (_, i) => [`shop.test/p${String(i).padStart(5, '0')}`, backend])

describe('how a map changes at runtime', () => {
  it('sends a small change to a large map entry by entry: the new keys added, the changed values set, the gone keys deleted', () => {
    const before = new Map<string, string>(paths(20_000))
    const after = new Map(before)
    after.set('shop.test/new', 'api')
    after.set('shop.test/p00007', 'api')
    after.delete('shop.test/p00009')
    const update = mapUpdate(FILES.exactMap, mapFile(before), mapFile(after))
    expect(update).toEqual({
      map: FILES.exactMap,
      how: 'entries',
      why: '',
      add: [{ key: 'shop.test/new', value: 'api' }],
      set: [{ key: 'shop.test/p00007', value: 'api' }],
      del: ['shop.test/p00009'],
      entries: 20_000,
    })
  })

  it('reads whole lines when the file before is the end of a line after (a host put before a key)', () => {
    const before = mapFile([['~/x', 'default_api_80']])
    const after = mapFile([['a.example.com~/x', 'default_api_80']])
    const update = mapUpdate(FILES.exactMap, before, after)
    expect([update.add, update.set, update.del]).toEqual([[{ key: 'a.example.com~/x', value: 'default_api_80' }], [], ['~/x']])
  })

  it(`swaps a map whole past ${MAX_ENTRY_LOOKUPS} keys set or deleted, whatever its size`, () => {
    const before = paths(20_000)
    const moved = (count: number) => mapFile(before.map(([key, backend], i): [string, string] => [key, i < count ? 'api' : backend]))
    expect(mapUpdate(FILES.exactMap, mapFile(before), moved(MAX_ENTRY_LOOKUPS))).toMatchObject({ how: 'entries' })
    expect(mapUpdate(FILES.exactMap, mapFile(before), moved(MAX_ENTRY_LOOKUPS + 1))).toMatchObject({
      how: 'swap',
      why: `${MAX_ENTRY_LOOKUPS + 1} keys set or deleted (more than ${MAX_ENTRY_LOOKUPS})`,
    })
    // Adds cost no lookup: 1,000 new keys beside 20,000 still go entry by entry.
    expect(mapUpdate(FILES.exactMap, mapFile(before), mapFile([...before, ...paths(21_000, 'api').slice(20_000)]))).toMatchObject({
      how: 'entries',
      add: expect.arrayContaining([{ key: 'shop.test/p20999', value: 'api' }]),
    })
  })

  it('swaps a map when the changes are as many as its entries after: the swap sends no more', () => {
    expect(mapUpdate(FILES.exactMap, '', 'shop.test/a web\n')).toMatchObject({ how: 'swap', why: '1 change for 1 entry' })
    expect(mapUpdate(FILES.prefixMap, 'shop.test/ web\n', 'shop.test/ web\nshop.test/a/ api\n')).toMatchObject({ how: 'entries' })
    expect(mapUpdate(FILES.prefixMap, 'shop.test/ web\nshop.test/a/ api\n', '')).toMatchObject({ how: 'swap', why: '2 changes for 0 entries' })
  })

  it('swaps a map with a repeated key, or a key a command line would split', () => {
    const many = mapFile(paths(100))
    expect(mapUpdate(FILES.exactMap, `${many}shop.test/p00001 api\n`, `${many}shop.test/x web\n`)).toMatchObject({
      how: 'swap',
      why: 'a key is repeated (shop.test/p00001)',
    })
    expect(mapUpdate(FILES.exactMap, many, `${many}shop.test/a;b web\n`)).toMatchObject({ how: 'swap', why: 'a key or value a command line cannot carry' })
  })

  it('swaps a map whose first match wins at any change, since `add map` appends where the file orders', () => {
    const routes = mapFile(Array.from({ length: 20 }, (_, i): [string, string] => [`^(?#99${String(i).padStart(2, '0')})(?:/r${i}[0-9]+)`, `~/r${i}[0-9]+`]))
    const longer = `^(?#9000)(?:/r1[0-9]+/long) ~/r1[0-9]+/long\n${routes}`
    for (const map of [FILES.pathRegexMap, FILES.rewriteRegexMap])
      expect(mapUpdate(map, routes, longer)).toMatchObject({ how: 'swap', why: 'a map whose first match wins is swapped whole' })
    expect(mapUpdate(FILES.canaryPatternsMap, routes, longer)).toMatchObject({ how: 'entries' })
  })

  it('finds the same changes as a comparison of the whole files, sorted as hapedge renders them or not', () => {
    const keys = fc.constantFrom(...Array.from({ length: 40 }, (_, i) => `h${i % 4}.test/p${String(i).padStart(2, '0')}`))
    const file = fc.array(fc.tuple(keys, fc.constantFrom('a', 'b')), { maxLength: 40 })
    fc.assert(
      fc.property(file, file, fc.boolean(), (before, after, sorted) => {
        const shape = (entries: [string, string][]) => {
          const unique = [...new Map(entries)]
          return mapFile(sorted ? unique.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : unique)
        }
        const [was, is] = [shape(before), shape(after)]
        const old = new Map(before)
        const now = new Map(after)
        const update = mapUpdate(FILES.exactMap, was, is)
        expect(new Set(update.del)).toEqual(new Set([...old.keys()].filter((key) => !now.has(key))))
        expect(new Map(update.add.map(({ key, value }) => [key, value]))).toEqual(new Map([...now].filter(([key]) => !old.has(key))))
        expect(new Map(update.set.map(({ key, value }) => [key, value]))).toEqual(
          new Map([...now].filter(([key, value]) => old.has(key) && old.get(key) !== value)),
        )
        expect(update.entries).toBe(now.size)
      }),
      { numRuns: runs(500) },
    )
  })

  it('finds from the lines that changed alone (as chunk trees give them) the update the whole files give, swaps included', () => {
    const keys = fc.constantFrom(...Array.from({ length: 40 }, (_, i) => `h${i % 4}.test/p${String(i).padStart(2, '0')}`))
    const file = fc.dictionary(keys, fc.constantFrom('a', 'b', 'a;b'), { maxKeys: 40 })
    fc.assert(
      fc.property(file, file, (before, after) => {
        const [old, now] = [new Map(Object.entries(before)), new Map(Object.entries(after))]
        const sorted = (entries: Map<string, string>) => mapFile([...entries].sort(([a], [b]) => (a < b ? -1 : 1)))
        const line = (entries: Map<string, string>, key: string) =>
          entries.has(key) ? { [entries === old ? 'before' : 'after']: `${key} ${entries.get(key)}\n` } : {}
        const changes = [...new Set([...old.keys(), ...now.keys()])]
          .sort()
          .filter((key) => old.get(key) !== now.get(key))
          .map((key) => ({ key, ...line(old, key), ...line(now, key) }))
        expect(mapUpdateFromLines(FILES.exactMap, { changes, lines: now.size })).toEqual(mapUpdate(FILES.exactMap, sorted(old), sorted(now)))
      }),
      { numRuns: runs(500) },
    )
  })

  it('is what the agent’s plan holds for each map it touches, beside the entries it lists', () => {
    const before = new Map([
      [FILES.exactMap, mapFile(paths(50))],
      [FILES.hostsMap, 'shop.test shop.test\n'],
    ])
    const next = new Map(before).set(FILES.exactMap, mapFile([...paths(50), ['shop.test/new', 'api']]))
    const plan = planFromFiles(before, next)
    expect(plan.maps).toEqual([{ map: FILES.exactMap, key: 'shop.test/new', value: 'api' }])
    expect(plan.mapUpdates).toMatchObject([{ map: FILES.exactMap, how: 'entries', add: [{ key: 'shop.test/new', value: 'api' }] }])
  })
})

describe('the order of the map steps', () => {
  const update = (map: string, change: Partial<MapUpdate>): MapUpdate => ({ map, how: 'entries', why: '', add: [], set: [], del: [], entries: 10, ...change })
  const entry = (key: string) => ({ key, value: 'x' })

  it('adds and sets the paths, then the hosts; deletes the hosts, then the paths', () => {
    const steps = mapSteps([
      update(FILES.hostsMap, { add: [entry('new.test')], del: ['old.test'] }),
      update(FILES.exactMap, { add: [entry('new.test/a')], set: [entry('keep.test/b')], del: ['old.test/a'] }),
      update(FILES.prefixMap, { add: [entry('new.test/')], del: ['old.test/'] }),
    ])
    expect(steps.map(describeStep)).toEqual([
      `add ${FILES.exactMap} new.test/a`,
      `set ${FILES.exactMap} keep.test/b`,
      `add ${FILES.prefixMap} new.test/`,
      `add ${FILES.hostsMap} new.test`,
      `del ${FILES.hostsMap} old.test`,
      `del ${FILES.exactMap} old.test/a`,
      `del ${FILES.prefixMap} old.test/`,
    ])
  })

  it('swaps hosts.map between the paths added and the paths deleted, and a swapped path map last', () => {
    const steps = mapSteps([
      update(FILES.prefixMap, { how: 'swap', why: 'large' }),
      update(FILES.hostsMap, { how: 'swap', why: 'large' }),
      update(FILES.exactMap, { add: [entry('new.test/a')], del: ['old.test/a'] }),
    ])
    expect(steps.map(describeStep)).toEqual([
      `add ${FILES.exactMap} new.test/a`,
      `swap ${FILES.hostsMap}`,
      `del ${FILES.exactMap} old.test/a`,
      `swap ${FILES.prefixMap}`,
    ])
  })

  it('leaves every key a map holds before and after in place at every step, and ends on the next file', () => {
    const keys = fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `h${i % 3}.test/p${i}`))
    const contents = fc.dictionary(keys, fc.constantFrom('a', 'b', 'c'), { maxKeys: 12 })
    const maps: string[] = [FILES.hostsMap, FILES.exactMap, FILES.prefixMap]
    fc.assert(
      fc.property(fc.tuple(...maps.map(() => fc.tuple(contents, contents))), (pairs) => {
        const before = new Map(maps.map((map, i) => [map, new Map<string, string>(Object.entries(pairs[i]![0]))]))
        const after = new Map(maps.map((map, i) => [map, new Map<string, string>(Object.entries(pairs[i]![1]))]))
        const updates = maps.map((map) => mapUpdate(map, mapFile(before.get(map)!), mapFile(after.get(map)!)))
        const live = new Map([...before].map(([map, entries]) => [map, new Map(entries)]))
        for (const step of mapSteps(updates.filter((change) => change.add.length + change.set.length + change.del.length > 0))) {
          const entries = live.get(step.map)!
          if (step.op === 'swap') live.set(step.map, new Map(after.get(step.map)!))
          else if (step.op === 'del') for (const key of step.keys) entries.delete(key)
          else for (const { key, value } of step.entries) entries.set(key, value)
          for (const map of maps) {
            if (updates.find((change) => change.map === map)!.how === 'swap') continue
            for (const key of before.get(map)!.keys()) {
              if (after.get(map)!.has(key)) expect([before.get(map)!.get(key), after.get(map)!.get(key)]).toContain(live.get(map)!.get(key))
            }
          }
        }
        expect(live).toEqual(after)
      }),
      { numRuns: runs(300) },
    )
  })
})

function describeStep(step: MapStep): string {
  if (step.op === 'swap') return `swap ${step.map}`
  const keys = step.op === 'del' ? step.keys : step.entries.map((entry) => entry.key)
  return `${step.op} ${step.map} ${keys.join(' ')}`
}
