/** @jsxImportSource hono/jsx */
import type { ClusterView } from '../services/fleet-views.ts'
import { Badge, When } from './format.tsx'

/** Whether a cluster's agents all run its generation: none reporting is neither yes nor no. */
export function Convergence(props: { cluster: ClusterView }) {
  const { agents, converged } = props.cluster
  if (agents.length === 0) return <Badge kind="muted">no agents</Badge>
  return converged ? <Badge kind="ok">yes</Badge> : <Badge kind="warn">no</Badge>
}

/** Ingresses not served because of their class: of other classes, and without one while ours is not the default; a dash before they are counted. */
export function IgnoredCount(props: { ignored: ClusterView['counts']['ignored'] }) {
  const { ignored } = props
  if (ignored === null) return <span class="muted">—</span>
  const parts = [
    ...(ignored.otherClass > 0 ? [`${ignored.otherClass} of other classes`] : []),
    ...(ignored.noDefaultClass > 0 ? [`${ignored.noDefaultClass} without a class (ours is not the default)`] : []),
  ]
  return parts.length === 0 ? <>0</> : <Badge kind="muted">{parts.join(' · ')}</Badge>
}

/** A rollback's pin: the generation served, and how many commits wait for a release. */
export function PinBadge(props: { pinned: ClusterView['pinned'] }) {
  if (!props.pinned) return null
  return <Badge kind="pin">{`pinned to ${props.pinned.generation} · ${props.pinned.held} held`}</Badge>
}

/** The fleet at a glance: one row per cluster. */
export function FleetTable(props: { clusters: ClusterView[]; now: Date }) {
  if (props.clusters.length === 0) return <p class="empty">No clusters yet: register one with POST /v1/clusters.</p>
  return (
    <table class="fleet">
      <thead>
        <tr>
          <th>Cluster</th>
          <th>Class</th>
          <th class="num">Generation</th>
          <th>Last change</th>
          <th>Last event</th>
          <th class="num">Ingresses</th>
          <th class="num">Hosts</th>
          <th class="num">Backends</th>
          <th class="num">Rejected</th>
          <th class="num">Ignored</th>
          <th class="num">Agents</th>
          <th>Converged</th>
          <th class="num">Agents behind</th>
        </tr>
      </thead>
      <tbody>
        {props.clusters.map((cluster) => (
          <tr data-cluster={cluster.id}>
            <td>
              <a href={`/fleet/${encodeURIComponent(cluster.id)}`}>{cluster.id}</a> {cluster.removed ? <Badge kind="muted">removed</Badge> : null}
            </td>
            <td class="mono">{cluster.ingressClass}</td>
            <td class="num" data-field="generation">
              {cluster.generation ?? '—'} <PinBadge pinned={cluster.pinned} />
            </td>
            <td>
              <When at={cluster.committedAt} now={props.now} />
            </td>
            <td>
              <When at={cluster.lastEventAt} now={props.now} />
            </td>
            <td class="num">{cluster.counts.ingresses}</td>
            <td class="num">{cluster.counts.hosts}</td>
            <td class="num">{cluster.counts.backends}</td>
            <td class="num" data-field="rejected">
              {cluster.counts.rejected > 0 ? <Badge kind="bad">{String(cluster.counts.rejected)}</Badge> : '0'}
            </td>
            <td class="num" data-field="ignored">
              <IgnoredCount ignored={cluster.counts.ignored} />
            </td>
            <td class="num">{cluster.agents.length}</td>
            <td data-field="converged">
              <Convergence cluster={cluster} />
            </td>
            <td class="num" data-field="behind">
              {cluster.agentsBehind > 0 ? <Badge kind="warn">{String(cluster.agentsBehind)}</Badge> : '0'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
