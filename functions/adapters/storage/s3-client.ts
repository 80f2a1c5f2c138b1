import { S3Client } from '@aws-sdk/client-s3'
import type { S3ClientConfig } from '@aws-sdk/client-s3'

/**
 * An S3 client that computes and checks checksums only where an operation requires them: the
 * SDK's default CRC32 trailers are refused by R2 and by S3 look-alikes (s3rver, older MinIO).
 */
export function createS3Client(config: S3ClientConfig): S3Client {
  return new S3Client({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', ...config })
}
