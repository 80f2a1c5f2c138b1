import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { compatibilityTable, compatibilityTableIn, TABLE_END, TABLE_START, withCompatibilityTable } from '../../../core/compatibility/compatibility-table.ts'

const readme = () => readFile(new URL('../../../README.md', import.meta.url), 'utf8')

describe("the README's annotation compatibility table", () => {
  it('is the table the model computes (run `npm run compat-table` when it is not)', async () => {
    const text = await readme()
    expect(compatibilityTableIn(text), 'README.md differs from the computed compatibility table: run `npm run compat-table`').toBe(compatibilityTable())
  })

  it('replaces only what is between the markers, and says so when they are missing', () => {
    const text = `# before\n${TABLE_START}\nold\n${TABLE_END}\nafter\n`
    expect(compatibilityTableIn(text)).toBe('old')
    expect(withCompatibilityTable(text, 'new')).toBe(`# before\n${TABLE_START}\nnew\n${TABLE_END}\nafter\n`)
    expect(compatibilityTableIn(`${TABLE_START}\n${TABLE_END}\n`)).toBe('')
    expect(withCompatibilityTable(`${TABLE_START}\n${TABLE_END}\n`, 'new')).toBe(`${TABLE_START}\nnew\n${TABLE_END}\n`)
    expect(() => withCompatibilityTable('# no markers\n', 'new')).toThrow(/compatibility-table:start/)
  })
})
