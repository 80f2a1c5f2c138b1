import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { WHOLE_HOST_INGRESSES } from '../../../core/model/cluster-state.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { TABLE } from '../../../core/snapshot/tables.ts'
import { added, app, deleted, modified } from '../../support/contracts/cluster-apps.ts'
import { SHARED_HOST, teamIngress, teams } from '../../support/shared-host.ts'

const whole = (cluster: LiveCluster) =>
  [...cluster.current.snapshot.prefix(`${TABLE.hostIngresses}${SEPARATOR}${SHARED_HOST}${SEPARATOR}`)].map((entry) => entry.value !== '""')

/** A cluster that always held these objects: one batch of additions. */
function freshOf(objects: readonly unknown[]): LiveCluster {
  const fresh = new LiveCluster()
  fresh.apply(objects.map(added))
  return fresh
}

describe('the host table', () => {
  it('holds the Ingresses of a host more than WHOLE_HOST_INGRESSES name whole, and empty entries for fewer, whatever the history', () => {
    const cluster = new LiveCluster()
    const steps: { events: WatchEvent[]; objects: unknown[]; whole: boolean }[] = [
      { events: [...app(1), ...teams(WHOLE_HOST_INGRESSES)].map(added), objects: [...app(1), ...teams(WHOLE_HOST_INGRESSES)], whole: false },
      // One more: every entry of the host becomes whole, those stored empty read from the object table.
      { events: [added(teamIngress('team-9'))], objects: [...app(1), ...teams(WHOLE_HOST_INGRESSES), teamIngress('team-9')], whole: true },
      // A path changed: the entry is the Ingress as it is now.
      {
        events: [modified(teamIngress('team-1', '/v2'))],
        objects: [...app(1), ...teams(1), teamIngress('team-1', '/v2'), ...teams(WHOLE_HOST_INGRESSES - 2, 2), teamIngress('team-9')],
        whole: true,
      },
      // Two gone and one come in one commit: fewer again, empty again.
      {
        events: [deleted(teamIngress('team-9')), deleted(teamIngress('team-0')), added(teamIngress('team-7'))],
        objects: [...app(1), teamIngress('team-1', '/v2'), ...teams(WHOLE_HOST_INGRESSES - 2, 2), teamIngress('team-7')],
        whole: false,
      },
    ]
    for (const step of steps) {
      cluster.apply(step.events)
      const fresh = freshOf(step.objects)
      expect(whole(cluster)).toEqual(Array.from({ length: step.whole ? WHOLE_HOST_INGRESSES + 1 : WHOLE_HOST_INGRESSES }, () => step.whole))
      expect(cluster.current.snapshot.root).toEqual(fresh.current.snapshot.root)
      expect(cluster.files()).toEqual(fresh.files())
    }
  })
})
