import { type ControllerKeys, DOCUMENTED_KEYS } from '../annotations/documented-keys.ts'
import { CONTROLLER_NAMES } from '../annotations/vocabularies.ts'
import type { AnnotationStatus } from './annotation-outcome.ts'
import { type KeyStatus, keyStatus } from './key-status.ts'

/** The statuses in the order the summaries count them. */
const STATUSES: readonly AnnotationStatus[] = ['honoured', 'partly', 'refused', 'not yet honoured', 'not supported', 'silent']

/** The markers of the README's compatibility table: `npm run compat-table` rewrites what is between them. */
export const TABLE_START = '<!-- compatibility-table:start -->'
export const TABLE_END = '<!-- compatibility-table:end -->'

/**
 * The README's compatibility table, computed: for each controller, every documented key judged
 * through the engine (key-status.ts), one collapsible table per controller, with the page and
 * commit its keys were read from.
 */
export function compatibilityTable(controllers: readonly ControllerKeys[] = DOCUMENTED_KEYS): string {
  return [LEGEND, ...controllers.map(controllerSection)].join('\n\n')
}

const LEGEND = `Every Ingress annotation each controller documents, judged by hapedge's engine on an Ingress with
one TLS host that carries the key with each value its page documents (and the keys it works with, such as
\`auth-type\` with \`auth-secret\`): **honoured**; **partly** (served, with a warning saying what is not done as
written, or only some of the documented values are; NGINX's location and server snippets, translated through a
vocabulary of directives); **refused** (access control hapedge cannot honour: the
Ingress is rejected and its routes answer 503, never served open; another controller's raw snippet is never
passed on, and one with an access directive refuses the Ingress); **not yet honoured** (read into the typed
model, not rendered yet: a warning); **not supported** (a warning with the reason). \`ingress.kubernetes.io/\`
keys are read as haproxy-ingress documents them, else as haproxytech does. The keys and values are in
\`core/annotations/documented-keys.ts\`; \`npm run compat-table\` rewrites this part of the README, and
\`npm run corpus-figures\` prints how the real-world manifests of the tests fare.`

function controllerSection(controller: ControllerKeys): string {
  const statuses = [...controller.keys].sort((a, b) => compare(a.annotation, b.annotation)).map(keyStatus)
  const counts = STATUSES.map((status) => [status, statuses.filter((key) => key.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ')
  const sources = controller.sources.map(
    (source) => `[\`${source.path.replace(/^.*\//, '')}\`](${source.url}) (${source.repository} at \`${source.commit.slice(0, 7)}\`)`,
  )
  return [
    `<details><summary><b>${CONTROLLER_NAMES[controller.vocabulary]}</b> (${controller.prefixes.map((prefix) => `<code>${prefix}</code>`).join(', ')}): ${statuses.length} keys, ${counts}</summary>`,
    '',
    `From ${sources.join(' and ')}: ${controller.scope}.`,
    '',
    '| key | status | how / why |',
    '|---|---|---|',
    ...statuses.map((status) => row(status, controller.prefixes[0]!)),
    '',
    '</details>',
  ].join('\n')
}

/** A row names the key without the controller's first prefix, which the summary names. */
function row({ annotation, status, reasons }: KeyStatus, prefix: string): string {
  const key = annotation.startsWith(prefix) ? annotation.slice(prefix.length) : annotation
  return `| \`${key}\` | ${status} | ${cell(reasons.join('; '))} |`
}

/** Text safe in one table cell: no line breaks, no column separator. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|')

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Where the table is in the README text: from after the start marker's line to the end marker. */
function tableBounds(readme: string): { from: number; end: number } {
  const start = readme.indexOf(TABLE_START)
  const end = readme.indexOf(TABLE_END)
  if (start < 0 || end < start + TABLE_START.length + 1) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} section`)
  return { from: start + TABLE_START.length + 1, end }
}

/** The table the README holds now (between the markers); an error when the markers are missing. */
export function compatibilityTableIn(readme: string): string {
  const { from, end } = tableBounds(readme)
  // The line break before the end marker ends the table's last line.
  return readme.slice(from, Math.max(from, end - 1))
}

/** README text with the part between the markers replaced by `table`; an error when the markers are missing. */
export function withCompatibilityTable(readme: string, table: string): string {
  const { from, end } = tableBounds(readme)
  return `${readme.slice(0, from)}${table}\n${readme.slice(end)}`
}
