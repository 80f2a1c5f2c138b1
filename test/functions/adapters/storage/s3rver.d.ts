// The part of s3rver 3.7 (which ships no types) that the S3 tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'
  import type { S3rverStore } from './s3rver-mends.ts'

  export default class S3rver {
    constructor(options: { address?: string; port?: number; directory: string; silent?: boolean; configureBuckets?: { name: string }[] })
    store: S3rverStore
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
