/** Why a sealed value did not open: its text is not a sealed value, or AES-GCM refused it. */
export type SealedValueFailure = 'format' | 'authentication' | 'not-text'

/**
 * A sealed value that cannot be opened. The message says what failed and for which context,
 * never the value or its plaintext. AES-GCM cannot tell a wrong key from a wrong context or an
 * altered value, so `authentication` names all three.
 */
export class SealedValueError extends Error {
  constructor(
    readonly failure: SealedValueFailure,
    readonly context: string,
    detail: string,
  ) {
    super(`cannot open the sealed value for ${JSON.stringify(context)}: ${detail}`)
    this.name = 'SealedValueError'
  }
}

/** Why a wrapped cluster key did not unwrap: its text, a deployment secret not configured, or AES-KW refused it. */
export type ClusterKeyFailure = 'format' | 'unknown-deployment-key' | 'unwrap'

/** A wrapped cluster key that cannot be unwrapped with the configured deployment secrets. */
export class ClusterKeyError extends Error {
  constructor(
    readonly failure: ClusterKeyFailure,
    detail: string,
  ) {
    super(`cannot unwrap the cluster key: ${detail}`)
    this.name = 'ClusterKeyError'
  }
}

/** A deployment secret refused before any key is derived from it (too short, missing). */
export class DeploymentSecretError extends Error {
  constructor(detail: string) {
    super(`deployment secret: ${detail}`)
    this.name = 'DeploymentSecretError'
  }
}
