/** An API error answered as a `Status` object, the way the API server answers every failure. */
export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }

  status() {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    }
  }
}

export const notFound = (plural: string, name: string) => new KubeError(404, 'NotFound', `${plural} "${name}" not found`, { name, kind: plural })
export const alreadyExists = (plural: string, name: string) => new KubeError(409, 'AlreadyExists', `${plural} "${name}" already exists`, { name, kind: plural })
export const conflict = (plural: string, name: string) =>
  new KubeError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, kind: plural },
  )
export const expired = (resourceVersion: string, oldest: number) => new KubeError(410, 'Expired', `too old resource version: ${resourceVersion} (${oldest})`)
export const badRequest = (message: string) => new KubeError(400, 'BadRequest', message)
