/** @jsxImportSource hono/jsx */
import type { GenerationDiff } from '../../../core/fleet/generation-diff.ts'
import type { GenerationSummary } from '../../../core/fleet/generation-history.ts'
import type { ClusterView } from '../services/fleet-views.ts'
import { CompareForm, DiffView } from './diff-view.tsx'
import { Convergence, IgnoredCount, PinBadge } from './fleet-table.tsx'
import { Badge, plural, When } from './format.tsx'

export interface ClusterPageProps {
  cluster: ClusterView
  /** The retained generations, newest first. */
  generations: GenerationSummary[]
  /** The two generations compared, and what differs; absent before a cluster has two. */
  comparison?: GenerationDiff
  /** The generation an action just made, to say so. */
  moved?: number
  csrf: string
  now: Date
}

/** One cluster: what it serves and refuses, its agents, its history with rollback, and a diff of two generations. */
export function ClusterPage(props: ClusterPageProps) {
  const { cluster, generations, comparison, now } = props
  const live = !cluster.removed
  return (
    <>
      <h1>
        {cluster.id} <PinBadge pinned={cluster.pinned} />
        {cluster.removed ? <Badge kind="muted">removed</Badge> : null}
      </h1>
      {props.moved !== undefined ? (
        <p class="notice" role="status">
          {`Now serving generation ${props.moved}.`}
        </p>
      ) : null}
      {cluster.pinned ? <PinBanner {...props} pinned={cluster.pinned} live={live} /> : null}
      <dl class="summary">
        <Figure label="Generation" value={cluster.generation ?? '—'} />
        <Figure label="Ingresses" value={cluster.counts.ingresses} />
        <Figure label="Hosts" value={cluster.counts.hosts} />
        <Figure label="Backends" value={cluster.counts.backends} />
        <Figure label="Rejected" value={cluster.counts.rejected} />
        <Figure label="Annotation warnings" value={cluster.counts.warnings} />
        <div data-field="ignored">
          <dt>Ignored by class</dt>
          <dd>
            <IgnoredCount ignored={cluster.counts.ignored} />
          </dd>
        </div>
        <div>
          <dt>Last change</dt>
          <dd>
            <When at={cluster.committedAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>Converged</dt>
          <dd>
            <Convergence cluster={cluster} />
          </dd>
        </div>
      </dl>

      <h2>Agents</h2>
      <Agents cluster={cluster} now={now} />

      <h2>Rejected objects</h2>
      {(cluster.rejected ?? []).length === 0 ? (
        <p class="empty">{everyObjectServed(cluster)}</p>
      ) : (
        <table class="rejected">
          <thead>
            <tr>
              <th>Object</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {(cluster.rejected ?? []).map((rejection) => (
              <tr>
                <td class="mono">{rejection.object}</td>
                <td>{rejection.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2 id="warnings">Annotations not honoured</h2>
      <AnnotationWarnings cluster={cluster} />

      <h2 id="diff">Difference</h2>
      {comparison ? (
        <>
          <CompareForm cluster={cluster.id} generations={generations} from={comparison.from} to={comparison.to} />
          <DiffView diff={comparison} />
        </>
      ) : (
        <p class="empty">A difference needs two retained generations.</p>
      )}

      <h2>Generations</h2>
      <History {...props} live={live} />
      <footer>{`Rendered ${now.toISOString()}. The newest ${generations.length} retained generations are listed.`}</footer>
    </>
  )
}

/** The annotations of served Ingresses that hapedge does not honour: each Ingress is served without them. */
function AnnotationWarnings({ cluster }: { cluster: ClusterView }) {
  const warnings = cluster.warnings ?? []
  if (warnings.length === 0) return <p class="empty">Every annotation hapedge reads is honoured.</p>
  return (
    <>
      <table class="warnings">
        <thead>
          <tr>
            <th>Ingress</th>
            <th>Annotation</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {warnings.map((warning) => (
            <tr>
              <td class="mono">{warning.object}</td>
              <td class="mono">{warning.annotation}</td>
              <td>{warning.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {cluster.counts.warnings > warnings.length ? <p class="empty">{`The first ${warnings.length} of ${cluster.counts.warnings} are listed.`}</p> : null}
    </>
  )
}

/** "Every object is served", unless the class leaves some Ingresses out: then every object of the cluster's class. */
function everyObjectServed({ ingressClass, counts: { ignored } }: ClusterView): string {
  const left = ignored ? ignored.otherClass + ignored.noDefaultClass : 0
  return left > 0
    ? `Every object of class ${ingressClass} is served; ${plural(left, 'Ingress is', 'Ingresses are')} ignored by class (above).`
    : 'Every object is served.'
}

function Figure(props: { label: string; value: string | number }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>{String(props.value)}</dd>
    </div>
  )
}

function PinBanner(props: ClusterPageProps & { pinned: NonNullable<ClusterView['pinned']>; live: boolean }) {
  const { pinned } = props
  return (
    <div class="banner" data-field="pin">
      <span>
        {`Rolled back: serving generation ${pinned.generation}'s content since `}
        <When at={pinned.since} now={props.now} />
        {`; ${plural(pinned.held, 'change')} held until a release.`}
      </span>
      {props.live ? (
        <form method="post" action={`/fleet/${encodeURIComponent(props.cluster.id)}/release`} class="inline">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit" class="primary">{`Release ${plural(pinned.held, 'held change')}`}</button>
        </form>
      ) : null}
    </div>
  )
}

function Agents(props: { cluster: ClusterView; now: Date }) {
  if (props.cluster.agents.length === 0) return <p class="empty">No agent has reported.</p>
  return (
    <table class="agents">
      <thead>
        <tr>
          <th>Pod</th>
          <th class="num">Runs generation</th>
          <th class="num">Behind</th>
          <th>Applied by</th>
          <th>Reported</th>
          <th>Last error</th>
          <th>Warnings</th>
        </tr>
      </thead>
      <tbody>
        {props.cluster.agents.map((agent) => (
          <tr>
            <td class="mono">{agent.pod}</td>
            <td class="num">{agent.generation ?? '—'}</td>
            <td class="num">
              {agent.behind === null ? '—' : agent.behind === 0 ? <Badge kind="ok">0</Badge> : <Badge kind="warn">{String(agent.behind)}</Badge>}
            </td>
            <td>{agent.applied ?? '—'}</td>
            <td>
              <When at={agent.reportedAt} now={props.now} />
            </td>
            <td class="mono">{agent.lastError ?? ''}</td>
            <td data-field="warnings">{agent.warnings.join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** How a generation was made: by events, a rollback, or a release. */
const origin = (summary: GenerationSummary) =>
  summary.origin?.kind === 'rollback' ? `rollback to ${summary.origin.to}` : summary.origin?.kind === 'release' ? 'release' : 'events'

/** How HAProxy takes it: a reload (with why), or through the runtime API. */
const applied = ({ reload, reasons, runtime }: GenerationSummary) =>
  reload
    ? `reload: ${reasons.join('; ')}`
    : `runtime: ${plural(runtime.maps, 'map entry', 'map entries')}, ${plural(runtime.servers, 'server')}, ${plural(runtime.certificates, 'certificate')}`

function History(props: ClusterPageProps & { live: boolean }) {
  const { cluster } = props
  return (
    <table class="history">
      <thead>
        <tr>
          <th class="num">Generation</th>
          <th>Committed</th>
          <th>Made by</th>
          <th>Applied</th>
          <th class="num">Files changed</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        {props.generations.map((summary) => (
          <tr data-generation={String(summary.generation)} class={summary.generation === cluster.generation ? 'current' : ''}>
            <td class="num">{summary.generation}</td>
            <td>
              <When at={summary.committedAt} now={props.now} />
            </td>
            <td class="nowrap">{origin(summary)}</td>
            <td>{applied(summary)}</td>
            <td class="num">{summary.files.length}</td>
            <td>
              {summary.generation === cluster.generation ? (
                <Badge kind="ok">serving</Badge>
              ) : props.live ? (
                <form method="post" action={`/fleet/${encodeURIComponent(cluster.id)}/rollback`} class="inline">
                  <input type="hidden" name="csrf" value={props.csrf} />
                  <input type="hidden" name="generation" value={String(summary.generation)} />
                  <button type="submit" class="danger">{`Roll back to ${summary.generation}`}</button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
