import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { compatibilityTable, withCompatibilityTable } from '../core/compatibility/compatibility-table.ts'

/** `npm run compat-table`: rewrites the README's annotation compatibility table from the model. */
const readmePath = fileURLToPath(new URL('../README.md', import.meta.url))
const readme = await readFile(readmePath, 'utf8')
const updated = withCompatibilityTable(readme, compatibilityTable())
if (updated === readme) console.log('README.md: the compatibility table is up to date')
else {
  await writeFile(readmePath, updated)
  console.log('README.md: the compatibility table is rewritten')
}
