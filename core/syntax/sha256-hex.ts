import { z } from 'zod'

/** A lowercase hex SHA-256: how files, manifests, tree nodes and token records are named. */
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex sha256')
