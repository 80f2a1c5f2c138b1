import { describe, expect, it } from 'vitest'
import { pageOrder } from '../../../core/resync/page-order.ts'
import { beginFinish } from '../../../core/resync/session.ts'

describe('the order a finish applies its pages in', () => {
  // Pages as the forwarder cuts them, from the list sorted by key: Ingresses come before their Secrets and Services.
  const bounds: [string, string][] = [
    ['EndpointSlice/a/svc-0-x', 'EndpointSlice/z/svc-9-x'],
    ['Ingress/a/app-0', 'Ingress/m/app-5'],
    ['Ingress/n/app-6', 'Ingress/z/app-9'],
    ['IngressClass/hapedge', 'Secret/m/app-5-tls'],
    ['Secret/n/app-6-tls', 'Service/b/svc-1'],
    ['Service/c/svc-2', 'Service/z/svc-9'],
  ]

  it('takes what Ingresses name before the Ingresses, in KIND_ORDER (a page with the earliest kind it may hold), each kind in key order', () => {
    const kinds = pageOrder(bounds).map((page) => bounds[page]![0].split('/')[0]!)
    expect(kinds).toEqual(['IngressClass', 'Secret', 'Service', 'EndpointSlice', 'Ingress', 'Ingress'])
    expect(pageOrder(bounds).slice(-2)).toEqual([1, 2])
  })

  it('puts pages that listed nothing first, and is what a finish begins with', () => {
    expect(pageOrder([null, ...bounds]).slice(0, 2)).toEqual([0, 4])
    expect(beginFinish(bounds, ['']).order).toEqual(pageOrder(bounds))
  })
})
