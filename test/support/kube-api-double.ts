import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { discoveryDocument } from './kube-api/discovery.ts'
import { badRequest, KubeError } from './kube-api/kube-error.ts'
import { listResponse } from './kube-api/list-response.ts'
import { KubeStorage, type WriteScope } from './kube-api/kube-storage.ts'
import { applyPatch } from './kube-api/patches.ts'
import { BUILT_IN_RESOURCES, guessPlural, parseResourcePath, type ResourcePath, type ResourceType } from './kube-api/resources.ts'
import { fieldSelector, labelSelector, type KubeObject, type ObjectMeta } from './kube-api/selectors.ts'
import { makeServingCertificate } from './kube-api/test-ca.ts'
import { WatchStream } from './kube-api/watch-stream.ts'
import { makeTempDir, removeTempDir } from './temp-dir.ts'

export type { KubeObject, ObjectMeta } from './kube-api/selectors.ts'

/** What the test controls take: any object with `apiVersion`, `kind` and `metadata` (the client's typed models included). */
export type ObjectInput = { apiVersion?: string; kind?: string; metadata?: ObjectMeta }
export type { ResourceType } from './kube-api/resources.ts'

/**
 * A DOUBLE of the Kubernetes API server, for tests: no real API server (nor etcd, Docker or
 * kind) runs on this machine, so this one speaks the real HTTP protocol on loopback to the real
 * `@kubernetes/client-node`. What it implements:
 *
 * - HTTPS with a CA made at start (the kubeconfig it writes carries it) and bearer-token auth
 *   (401 `Status` without the token);
 * - any resource under `/api/v1` and `/apis/{group}/{version}`, namespaced or cluster-scoped
 *   (built-ins and `hapedge.io/v1alpha1` `haproxycfgs` known up front, more through `resources`
 *   or learned from the first `put` of a new kind), plus discovery (`/api`, `/apis`,
 *   `/api/v1`, `/apis/{g}/{v}`);
 * - GET list (`{Kind}List` with `metadata.resourceVersion`; built-in items without
 *   `apiVersion`/`kind`, as the real server sends them; `labelSelector`, `fieldSelector` on any
 *   dotted field, `limit`/`continue`; `resourceVersionMatch=Exact` only for the current version,
 *   else 410), GET one, POST (201; 409 AlreadyExists), PUT (409 Conflict on a stale
 *   `metadata.resourceVersion`), DELETE (answers the deleted object), PATCH as merge
 *   (`merge-patch+json`; `strategic-merge-patch+json` is treated as a merge patch) or RFC 6902
 *   (`json-patch+json`, the client's default), a stale resourceVersion in a merge patch is 409;
 * - the `/status` subresource (GET, PUT, PATCH change only `.status`; writes to the main
 *   resource keep `.status`);
 * - `?watch=true`: newline-delimited `{type, object}` events from `resourceVersion` (absent or
 *   "0": ADDED for every current object first), BOOKMARKs when `allowWatchBookmarks=true` (on
 *   `bookmark()` and before a `timeoutSeconds` ends the stream), and for a resourceVersion older
 *   than the last `compact()` one ERROR event with a 410 Expired `Status`, as the real server;
 * - one global resourceVersion counter, `uid`, `creationTimestamp`, `generation` (bumped when
 *   anything outside metadata and status changes).
 *
 * Not implemented: namespaces are not required to exist, no admission, defaulting, schema
 * validation, finalizers, server-side apply, field managers or protobuf.
 */
export class KubeApiDouble {
  /** Every request, in order; `status` is filled in when answered (a watch: when its stream opened). */
  readonly requests: LoggedRequest[] = []
  private readonly storage: KubeStorage
  private readonly resources: ResourceType[]
  private readonly watches = new Set<WatchStream>()

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
    readonly caPem: string,
    private readonly dir: string,
    options: KubeApiDoubleOptions,
  ) {
    this.storage = new KubeStorage(options.startResourceVersion ?? 1000)
    this.resources = [...(options.resources ?? []), ...BUILT_IN_RESOURCES]
  }

  static async start(options: KubeApiDoubleOptions = {}): Promise<KubeApiDouble> {
    const dir = await makeTempDir('kube-api-double')
    const { caPem, certPem, keyPem } = await makeServingCertificate(dir)
    let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined
    const server = createServer({ cert: certPem, key: keyPem }, (request, response) => handle(request, response))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    const double = new KubeApiDouble(server, url, options.token ?? 'kube-api-double-token', caPem, dir, options)
    handle = (request, response) => void double.handle(request, response)
    return double
  }

  /** The current global resourceVersion. */
  get resourceVersion(): string {
    return String(this.storage.resourceVersion)
  }

  /** Creates or replaces an object as another client of the cluster would (status included); answers it as stored. */
  put<T extends ObjectInput>(object: T): KubeObject {
    const resource = this.resourceOf(object)
    const { namespace, name } = this.placeOf(resource, object)
    const input = object as KubeObject
    const exists = this.storage.list(resource, namespace).some((stored) => stored.metadata?.name === name)
    const unconditional = { ...input, metadata: { ...object.metadata, resourceVersion: undefined } }
    return exists
      ? this.storage.replace(resource, namespace, name, unconditional, 'control')
      : this.storage.create(resource, namespace, unconditional, 'control')
  }

  /** The same as `put`: what `kubectl apply` does, for a test's purposes. */
  apply<T extends ObjectInput>(object: T): KubeObject {
    return this.put(object)
  }

  /** Deletes an object named by `apiVersion`, `kind`, `metadata.namespace` and `metadata.name`; false when there was none. */
  remove<T extends ObjectInput>(object: T): boolean {
    const resource = this.resourceOf(object)
    const { namespace, name } = this.placeOf(resource, object)
    if (!this.find(object)) return false
    this.storage.delete(resource, namespace, name)
    return true
  }

  /** The stored object, or undefined. */
  find<T extends ObjectInput>(object: T): KubeObject | undefined {
    const resource = this.resourceOf(object)
    const { namespace, name } = this.placeOf(resource, object)
    return this.storage.list(resource, namespace).find((stored) => stored.metadata?.name === name)
  }

  /** Every stored object of a kind (in a namespace, or everywhere). */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    return this.storage.list(this.resourceOf({ apiVersion, kind }), namespace)
  }

  /** Forgets the change history: a watch resumed from any resourceVersion handed out so far gets 410 Expired. */
  compact(): void {
    this.storage.compact()
  }

  /** Closes every open watch stream (an API server restart, a load balancer timeout); answers how many were open. */
  dropWatches(): number {
    const open = [...this.watches]
    for (const watch of open) watch.end()
    return open.length
  }

  /** Sends a BOOKMARK with the current resourceVersion on every open watch that allows them. */
  bookmark(): void {
    for (const watch of this.watches) watch.bookmark()
  }

  /** The open watches: which resource, where, and from which resourceVersion each started. */
  openWatches(): { plural: string; namespace?: string; resourceVersion: string | null }[] {
    return [...this.watches].map(({ request }) => ({ plural: request.resource.plural, namespace: request.namespace, resourceVersion: request.resourceVersion }))
  }

  /** Writes a kubeconfig for the double (its CA, its token or `token`) and answers its path. */
  async kubeconfig(options: { token?: string; name?: string } = {}): Promise<string> {
    const file = join(this.dir, `${options.name ?? 'kubeconfig'}.yaml`)
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'double', cluster: { server: this.url, 'certificate-authority-data': Buffer.from(this.caPem).toString('base64') } }],
      users: [{ name: 'tester', user: { token: options.token ?? this.token } }],
      contexts: [{ name: 'double', context: { cluster: 'double', user: 'tester', namespace: 'default' } }],
      'current-context': 'double',
    }
    await writeFile(file, JSON.stringify(config, null, 2))
    return file
  }

  /** A `KubeConfig` loaded from `kubeconfig(options)`. */
  async kubeConfig(options: { token?: string } = {}): Promise<KubeConfig> {
    const config = new KubeConfig()
    config.loadFromFile(await this.kubeconfig({ ...options, name: `kubeconfig-${Date.now()}-${Math.random().toString(36).slice(2)}` }))
    return config
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    this.dropWatches()
    this.server.closeAllConnections()
    await closed
    await removeTempDir(this.dir)
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url)
    const logged: LoggedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: request.headers['content-type'],
      status: 0,
    }
    this.requests.push(logged)
    const answer = (status: number, body: unknown) => {
      logged.status = status
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    try {
      if (request.headers.authorization !== `Bearer ${this.token}`) throw new KubeError(401, 'Unauthorized', 'Unauthorized')
      const body = await readBody(request)
      const discovery = discoveryDocument(url.pathname, this.resources)
      if (discovery) return answer(200, discovery)
      const path = parseResourcePath(url.pathname)
      const resource = path && this.resources.find((type) => type.group === path.group && type.version === path.version && type.plural === path.plural)
      if (!path || !resource) throw new KubeError(404, 'NotFound', 'the server could not find the requested resource')
      if (path.namespace !== undefined && !resource.namespaced) throw new KubeError(404, 'NotFound', 'the server could not find the requested resource')
      if (!path.name) {
        if (logged.method === 'GET' && ['true', '1'].includes(url.searchParams.get('watch') ?? '')) {
          logged.status = 200
          return this.watch(resource, path, url.searchParams, response)
        }
        if (logged.method === 'GET') return answer(200, listResponse(this.storage, resource, path.namespace, url.searchParams))
        if (logged.method === 'POST') {
          const input = parseJson(body) as KubeObject
          if (path.namespace !== undefined && input.metadata?.namespace && input.metadata.namespace !== path.namespace)
            throw badRequest('the namespace of the provided object does not match the namespace sent on the request')
          return answer(201, this.storage.create(resource, path.namespace, input, 'main'))
        }
        throw new KubeError(405, 'MethodNotAllowed', `${logged.method} is not supported on a collection by the double`)
      }
      if (path.subresource !== undefined && !(path.subresource === 'status' && resource.status))
        throw new KubeError(404, 'NotFound', 'the server could not find the requested resource')
      const scope: WriteScope = path.subresource === 'status' ? 'status' : 'main'
      const { namespace, name } = path as Required<Pick<ResourcePath, 'name'>> & ResourcePath
      switch (logged.method) {
        case 'GET':
          return answer(200, this.storage.get(resource, namespace, name))
        case 'PUT':
          return answer(200, this.storage.replace(resource, namespace, name, parseJson(body) as KubeObject, scope))
        case 'PATCH':
          return answer(
            200,
            this.storage.replace(
              resource,
              namespace,
              name,
              applyPatch(this.storage.get(resource, namespace, name), parseJson(body), logged.contentType ?? ''),
              scope,
            ),
          )
        case 'DELETE':
          return answer(200, this.storage.delete(resource, namespace, name))
      }
      throw new KubeError(405, 'MethodNotAllowed', `${logged.method} is not supported`)
    } catch (error) {
      const failure = error instanceof KubeError ? error : new KubeError(500, 'InternalError', (error as Error).message)
      answer(failure.code, failure.status())
    }
  }

  private watch(resource: ResourceType, path: ResourcePath, query: URLSearchParams, response: ServerResponse): void {
    const labels = labelSelector(query.get('labelSelector'))
    const fields = fieldSelector(query.get('fieldSelector'))
    const timeout = query.get('timeoutSeconds')
    const stream = new WatchStream(
      {
        resource,
        namespace: path.namespace,
        selects: (object) => labels(object) && fields(object),
        resourceVersion: query.get('resourceVersion'),
        allowBookmarks: query.get('allowWatchBookmarks') === 'true',
        ...(timeout ? { timeoutSeconds: Number(timeout) } : {}),
      },
      this.storage,
      response,
      (closed) => this.watches.delete(closed),
    )
    if (stream.open) this.watches.add(stream)
  }

  /** The resource type of an object's `apiVersion` and `kind`; a kind never seen is registered as a namespaced custom resource. */
  private resourceOf(object: ObjectInput): ResourceType {
    const [group, version] = (object.apiVersion ?? '').includes('/') ? (object.apiVersion!.split('/') as [string, string]) : ['', object.apiVersion ?? '']
    if (!version || !object.kind) throw new Error('the object needs apiVersion and kind')
    let resource = this.resources.find((type) => type.group === group && type.version === version && type.kind === object.kind)
    if (!resource)
      this.resources.push((resource = { group, version, kind: object.kind, plural: guessPlural(object.kind), namespaced: true, builtIn: false, status: true }))
    return resource
  }

  private placeOf(resource: ResourceType, object: ObjectInput): { namespace: string | undefined; name: string } {
    const name = object.metadata?.name
    if (!name) throw new Error(`${resource.kind}: metadata.name is required`)
    return { namespace: resource.namespaced ? (object.metadata?.namespace ?? 'default') : undefined, name }
  }
}

export interface KubeApiDoubleOptions {
  /** The bearer token every request must carry (default `kube-api-double-token`). */
  token?: string
  /** More resource types to serve, beyond the built-ins and `haproxycfgs`. */
  resources?: ResourceType[]
  /** Where the resourceVersion counter starts (default 1000). */
  startResourceVersion?: number
}

export interface LoggedRequest {
  method: string
  path: string
  query: Record<string, string>
  contentType: string | undefined
  status: number
}

/** Starts a Kubernetes API server double on a free loopback port. */
export const startKubeApiDouble = (options?: KubeApiDoubleOptions) => KubeApiDouble.start(options)

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw badRequest(`the body is not JSON: ${(error as Error).message}`)
  }
}
