import { z } from 'zod'

/** A lowercase hex SHA-256: how files, manifests, tree nodes and token records are named. */
export const SHA256_HEX = /^[0-9a-f]{64}$/

export const sha256Hex = z.string().regex(SHA256_HEX, 'must be a lowercase hex sha256')
