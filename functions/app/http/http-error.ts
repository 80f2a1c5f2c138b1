import type { ErrorBody } from '../../../core/api/error-body.ts'

/** An error with its HTTP status and, for bad input, the field path: `{"error": {"message", "path"}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 500 | 503,
    message: string,
    readonly path?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'HttpError'
  }

  toJSON(): ErrorBody {
    return { error: this.path === undefined ? { message: this.message } : { message: this.message, path: this.path } }
  }
}
