import { startNamedBackends, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, service } from '../support/objects.ts'

export interface ServiceBackends {
  /** For each name: a Service (port 80) and an EndpointSlice whose one ready endpoint is the backend of that name. */
  objects: unknown[]
  backend(name: string): NamedBackend
  close(): Promise<void>
}

/**
 * One loopback HTTP server per Service name, answering with its own name, so a response says
 * which Service HAProxy routed to. Service names must be DNS labels.
 */
export async function startServices(names: readonly string[], namespace = 'default'): Promise<ServiceBackends> {
  const unique = [...new Set(names)]
  const backends = await startNamedBackends(unique.map((name) => ({ name })))
  const byName = new Map(backends.map((backend) => [backend.name, backend]))
  return {
    objects: backends.flatMap((backend) => [
      service(backend.name, [{ port: 80 }], namespace),
      endpointSlice(backend.name, [{ address: backend.host, ready: true }], [{ port: backend.port }], { namespace }),
    ]),
    backend: (name) => {
      const backend = byName.get(name)
      if (!backend) throw new Error(`no backend named ${name}`)
      return backend
    },
    close: async () => {
      await Promise.all(backends.map((backend) => backend.close()))
    },
  }
}
