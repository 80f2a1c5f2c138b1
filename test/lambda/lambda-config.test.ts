import { describe, expect, it } from 'vitest'
import { readLambdaConfig } from '../../functions/platforms/lambda/lambda-config.ts'

const complete = { HAPEDGE_BUCKET: 'hapedge-prod', HAPEDGE_ADMIN_TOKEN: 'a'.repeat(32), AWS_REGION: 'eu-west-1' }

describe('the Lambda configuration', () => {
  it('reads AWS S3 by default, and an S3-compatible endpoint with path-style URLs when asked', () => {
    expect(readLambdaConfig(complete)).toEqual({
      bucket: 'hapedge-prod',
      forcePathStyle: false,
      region: 'eu-west-1',
      adminToken: 'a'.repeat(32),
      cache: { perCluster: 8 * 1024 * 1024, clusters: 4 },
    })
    const compatible = readLambdaConfig({
      ...complete,
      HAPEDGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      HAPEDGE_S3_FORCE_PATH_STYLE: 'TRUE',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    })
    expect(compatible).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, cache: { perCluster: 64 * 1024 * 1024, clusters: 4 } })
  })

  it('names every variable that is missing or wrong in one error', () => {
    expect(() => readLambdaConfig({})).toThrow(
      'hapedge lambda configuration: HAPEDGE_BUCKET is not set: the S3 bucket that holds the clusters; ' +
        'AWS_REGION is not set: the region of the bucket (Lambda sets it); HAPEDGE_ADMIN_TOKEN is not set: the token that registers clusters',
    )
    const wrong = {
      HAPEDGE_BUCKET: 'My_Bucket',
      HAPEDGE_S3_ENDPOINT: 'minio:9000',
      HAPEDGE_S3_FORCE_PATH_STYLE: 'yes',
      HAPEDGE_ADMIN_TOKEN: 'short',
      AWS_REGION: 'eu-west-1',
    }
    expect(() => readLambdaConfig(wrong)).toThrow(
      'hapedge lambda configuration: HAPEDGE_BUCKET is not an S3 bucket name: "My_Bucket"; HAPEDGE_S3_ENDPOINT is not an http(s) URL: "minio:9000"; ' +
        'HAPEDGE_S3_FORCE_PATH_STYLE must be true or false, not "yes"; HAPEDGE_ADMIN_TOKEN must be at least 16 characters',
    )
    expect(() => readLambdaConfig({ ...complete, HAPEDGE_BUCKET: '   ' })).toThrow(/HAPEDGE_BUCKET is not set/)
  })
})
