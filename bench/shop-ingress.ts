import { ingress } from '../test/support/objects.ts'

/**
 * The Ingress the convergence changes touch: host `shop.test`, `/` to Service `web` and
 * `/added` to `added`; each path change adds one more path (to `added`, whose backend is there
 * from the start: a map entry, applied at runtime). Redirects are off, so plain HTTP answers.
 */
export class ShopIngress {
  private readonly paths: { path: string; service: string }[] = [
    { path: '/', service: 'web' },
    { path: '/added', service: 'added' },
  ]

  /** The Ingress with every path added so far. */
  object(): ReturnType<typeof ingress> {
    return ingress({
      name: 'shop',
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host: 'shop.test', paths: this.paths.map(({ path, service }) => ({ path, service })) }],
    })
  }

  /** The Ingress with `path` to `service` added. */
  withPath(path: string, service = 'added'): ReturnType<typeof ingress> {
    this.paths.push({ path, service })
    return this.object()
  }
}
