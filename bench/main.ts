import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { measureSize, type SizeResult } from './measure.ts'
import { printReport } from './report.ts'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,5000,20000' },
    samples: { type: 'string', default: '40' },
    json: { type: 'string' },
  },
})
const sizes = values.sizes.split(',').map((size) => Number(size.trim()))
if (sizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error(`--sizes: whole numbers of at least 100, got ${values.sizes}`)
if (!(globalThis as { gc?: unknown }).gc) console.warn('note: run with --expose-gc (npm run bench does) for steadier heap figures')

const results: SizeResult[] = []
for (const size of sizes) {
  console.error(`measuring ${size} Ingresses…`)
  results.push(await measureSize(size, { samples: Number(values.samples), fullRuns: size >= 20_000 ? 5 : 9 }))
}
printReport(results)
if (values.json) {
  await writeFile(values.json, `${JSON.stringify(results.flatMap((result) => result.rows), null, 2)}\n`)
  console.log(`\nwrote ${values.json}`)
}
