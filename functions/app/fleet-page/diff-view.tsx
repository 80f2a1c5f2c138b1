/** @jsxImportSource hono/jsx */
import type { GenerationDiff } from '../../../core/fleet/generation-diff.ts'
import type { GenerationSummary } from '../../../core/fleet/generation-history.ts'

const bytes = (n: number | null) => (n === null ? '—' : `${n.toLocaleString('en')} B`)
const either = (value: string | boolean | null) => (value === null ? '—' : String(value))

/** The form that picks two retained generations to compare (a GET, so a diff has its own address). */
export function CompareForm(props: { cluster: string; generations: GenerationSummary[]; from: number; to: number }) {
  const options = (chosen: number) =>
    props.generations.map(({ generation }) => <option value={String(generation)} selected={generation === chosen}>{`generation ${generation}`}</option>)
  return (
    <form class="compare" method="get" action={`/fleet/${encodeURIComponent(props.cluster)}`}>
      <label for="from">Compare</label>
      <select id="from" name="from">
        {options(props.from)}
      </select>
      <label for="to">with</label>
      <select id="to" name="to">
        {options(props.to)}
      </select>
      <button type="submit">Compare</button>
    </form>
  )
}

/** What differs between two generations: routes first (what people changed), then TLS hosts, then the files HAProxy reads. */
export function DiffView(props: { diff: GenerationDiff }) {
  const { routes, hosts, files } = props.diff
  if (routes.length + hosts.length + files.length === 0)
    return <p class="empty">{`Generations ${props.diff.from} and ${props.diff.to} serve the same files.`}</p>
  return (
    <div class="diff">
      <table class="routes">
        <thead>
          <tr>
            <th>Route</th>
            <th>Host</th>
            <th>Match</th>
            <th>Path</th>
            <th>Backend before</th>
            <th>Backend after</th>
          </tr>
        </thead>
        <tbody>
          {routes.length === 0 ? (
            <tr>
              <td colspan={6} class="muted">
                No route changed.
              </td>
            </tr>
          ) : (
            routes.map((route) => (
              <tr>
                <td class={route.change}>{route.change}</td>
                <td class="mono">{route.host === '' ? '(any host)' : route.host}</td>
                <td>{route.match}</td>
                <td class="mono">{route.path}</td>
                <td class="mono">{either(route.backend.before)}</td>
                <td class="mono">{either(route.backend.after)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {hosts.length > 0 ? (
        <table class="hosts">
          <thead>
            <tr>
              <th>TLS host</th>
              <th>Certificate before</th>
              <th>Certificate after</th>
              <th>HTTPS redirect</th>
            </tr>
          </thead>
          <tbody>
            {hosts.map((host) => (
              <tr>
                <td class="mono">{host.host}</td>
                <td class="mono">{either(host.tls.before)}</td>
                <td class="mono">{either(host.tls.after)}</td>
                <td>{`${either(host.redirectToHttps.before)} → ${either(host.redirectToHttps.after)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <table class="files">
        <thead>
          <tr>
            <th>File</th>
            <th>Change</th>
            <th class="num">Before</th>
            <th class="num">After</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr>
              <td class="mono">{file.path}</td>
              <td class={file.change}>{file.change}</td>
              <td class="num">{bytes(file.bytes.before)}</td>
              <td class="num">{bytes(file.bytes.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
