import { encodeBase64url } from '../../../core/crypto/base64url.ts'
import { agentPushKey, derivePushRoot, signPushedHead, type PushedHead } from '../../../core/crypto/push-signature.ts'

/** Which run of which agent of which cluster a push key belongs to. */
export interface AgentRun {
  cluster: string
  pod: string
  /** The name the agent's run gave itself in its reports. */
  instance: string
}

/**
 * Agents' push keys under the deployment secret: the key an agent run is given in its report's
 * answer, and the signature of each head pushed to it. Derived, never stored: any replica with
 * the secret signs for any agent, and a reader of the store learns no key.
 */
export class PushKeys {
  private root: Uint8Array | undefined

  constructor(private readonly secret: string) {}

  /** The key (base64url) that checks the pushes to this agent run: what its report is answered with. */
  keyFor(run: AgentRun): string {
    return encodeBase64url(this.key(run))
  }

  /** The signature of `head` for this agent run: what it checks a pushed head with before taking it as HEAD. */
  sign(run: AgentRun, head: PushedHead): string {
    return signPushedHead(this.key(run), run.cluster, head)
  }

  private key(run: AgentRun): Uint8Array {
    this.root ??= derivePushRoot(this.secret)
    return agentPushKey(this.root, run.cluster, run.pod, run.instance)
  }
}
