import { fileURLToPath } from 'node:url'
import { type CorpusIngress, corpusFigures, corpusIngress, describeCorpusFigures } from '../core/compatibility/corpus-figures.ts'
import { loadObjects } from '../processes/cli/load-objects.ts'

/** `npm run corpus-figures`: how the real-world manifests' annotations are taken (test/fixtures/corpus, SOURCES.tsv). */
const corpusPath = fileURLToPath(new URL('../test/fixtures/corpus', import.meta.url))
const corpus: CorpusIngress[] = (await loadObjects([corpusPath])).flatMap(({ object, source }) => {
  const ingress = corpusIngress(object)
  return ingress ? [{ where: `${source.replace(/^.*\//, '')} ${ingress.metadata.name}`, ingress }] : []
})
console.log(describeCorpusFigures(corpusFigures(corpus)))
