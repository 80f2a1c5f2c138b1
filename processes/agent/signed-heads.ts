import { pushBody } from '../../core/api/push-body.ts'
import { encodeBase64url } from '../../core/crypto/base64url.ts'
import { pushKeyBytes, verifyPushedHead } from '../../core/crypto/push-signature.ts'

/** A head the function pushed and signed for this run: taken as HEAD's answer, without asking for it. */
export interface SignedHead {
  generation: number
  manifest: string
  blobs: Record<string, string>
}

/**
 * This agent run's side of signed pushes: the name it reports (`instance`, random for each run), the
 * key the function answers that report with, and the check of each push against it. A push that is
 * unsigned, or signed under a key the run no longer holds (the deployment's secret rotated, say), only
 * starts a sync that reads HEAD.
 */
export class SignedHeads {
  readonly instance = encodeBase64url(crypto.getRandomValues(new Uint8Array(18)))
  private key: Uint8Array | undefined

  constructor(private readonly cluster: string) {}

  /** The key in the function's answer to a report (none: pushes to this run are not signed). */
  use(encoded: string | undefined): void {
    this.key = encoded === undefined ? undefined : pushKeyBytes(encoded)
  }

  /** The head in a push's body, when it is signed for this run; undefined otherwise. */
  verified(body: unknown): SignedHead | undefined {
    const pushed = pushBody.safeParse(body)
    if (!pushed.success || !this.key || pushed.data.signature === undefined) return undefined
    const { generation, manifest, blobs, signature } = pushed.data
    return verifyPushedHead(this.key, this.cluster, { generation, manifest }, signature) ? { generation, manifest, blobs: blobs ?? {} } : undefined
  }
}
