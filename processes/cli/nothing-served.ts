import { requestedClass } from '../../core/kube/ingress.ts'
import { apiVersionOf, isRecord } from '../../core/kube/objects.ts'
import type { ClusterState } from '../../core/model/cluster-state.ts'

const SERVES_NOTHING = 'the configuration serves nothing (HAProxy answers 404)'

/**
 * What to tell someone whose render serves no Ingress at all: that the input held no objects, or
 * no Ingress, or only Ingresses of other classes, counted by class so that the one they meant is
 * in sight of `--ingress-class`. Undefined when some Ingress asks for the rendered class, or the
 * input holds Gateway API routes (if rejected or not attached, their reports say why).
 */
export function nothingServed(objects: readonly unknown[], state: ClusterState, inputs: readonly string[]): string | undefined {
  if (objects.length === 0) return `no Kubernetes objects found in ${inputs.join(', ')}; ${SERVES_NOTHING}`
  if (state.httpRoutes().length > 0 || state.grpcRoutes().length > 0) return undefined
  const skipped = new Map<string | undefined, number>()
  for (const object of objects) {
    if (!isRecord(object) || object.kind !== 'Ingress' || object.apiVersion !== apiVersionOf('Ingress')) continue
    const requested = requestedClass(object)
    if (state.servesClass(requested)) return undefined
    skipped.set(requested, (skipped.get(requested) ?? 0) + 1)
  }
  if (skipped.size === 0) return `no Ingress among the ${counted(objects.length, 'object')} read; ${SERVES_NOTHING}`
  const { ingressClass } = state.options
  const total = [...skipped.values()].reduce((sum, count) => sum + count, 0)
  const counts = [...skipped]
    .sort(([a, countA], [b, countB]) => countB - countA || String(a).localeCompare(String(b)))
    .map(([requested, count]) =>
      requested === undefined ? `${count} without a class, which only a default IngressClass ${ingressClass} would take` : `${count} ${requested}`,
    )
  return `no Ingress of class ${ingressClass} found (${counted(total, 'Ingress')} of other classes skipped: ${counts.join('; ')}); choose the class with --ingress-class NAME`
}

/** What a render that serves some Ingresses leaves out because of their class, counted; undefined when it leaves none out. */
export function ignoredByClass(state: ClusterState): string | undefined {
  const { otherClass, noDefaultClass } = state.ignoredByClass()
  const parts = [
    ...(otherClass > 0 ? [`${counted(otherClass, 'Ingress')} of other classes`] : []),
    ...(noDefaultClass > 0 ? [`${counted(noDefaultClass, 'Ingress')} without a class (${state.options.ingressClass} is not the default IngressClass)`] : []),
  ]
  return parts.length > 0 ? `not served because of their class: ${parts.join(' and ')}` : undefined
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : noun.endsWith('s') ? 'es' : 's'}`
}
