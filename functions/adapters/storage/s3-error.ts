/** The HTTP status an SDK error carries; present even when the error body could not be parsed. */
export const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode

/**
 * What S3 said, as an error named by S3's code. The SDK's browser build, which Workers run,
 * parses XML error bodies with DOMParser; workerd has none, so the SDK throws a ReferenceError
 * that still carries the status and the raw body: S3's Code and Message are read from that body.
 */
export function s3Failure(error: unknown): unknown {
  const body = (error as { $responseBodyText?: unknown } | undefined)?.$responseBodyText
  const code = typeof body === 'string' ? /<Code>([^<]*)<\/Code>/.exec(body)?.[1] : undefined
  if (!code) return error
  const message = /<Message>([^<]*)<\/Message>/.exec(body as string)?.[1] ?? code
  return Object.assign(new Error(`${code}: ${message}`, { cause: error }), { name: code })
}
