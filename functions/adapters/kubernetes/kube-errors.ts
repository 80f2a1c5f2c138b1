import { ApiException } from '@kubernetes/client-node'

/** An API server failure as the writer reports it: the HTTP status (none for a network error) and the server's own message. */
export interface KubeFailure {
  code?: number
  message: string
}

/** Reads `@kubernetes/client-node`'s ApiException (whose body is the server's `Status` as text) or any other error. */
export function kubeFailure(error: unknown): KubeFailure {
  if (error instanceof ApiException) {
    const code = error.code
    return { code, message: `${code}: ${statusMessage(error.body) ?? 'the API server refused the request'}` }
  }
  return { message: error instanceof Error ? error.message : String(error) }
}

export const isConflict = (error: unknown) => error instanceof ApiException && error.code === 409
export const isNotFound = (error: unknown) => error instanceof ApiException && error.code === 404

function statusMessage(body: unknown): string | undefined {
  const parsed = typeof body === 'string' ? safeParse(body) : body
  const message = typeof parsed === 'object' && parsed !== null ? (parsed as { message?: unknown }).message : undefined
  return typeof message === 'string' ? message : undefined
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
