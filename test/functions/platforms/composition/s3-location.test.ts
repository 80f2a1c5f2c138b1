import { describe, expect, it } from 'vitest'
import { parseS3Url, s3Url } from '../../../../functions/platforms/composition/s3-location.ts'

describe('s3://BUCKET[/PREFIX]', () => {
  it('is a bucket, and a prefix ending in one slash when a path follows it', () => {
    expect(parseS3Url('s3://hapedge')).toEqual({ bucket: 'hapedge' })
    expect(parseS3Url('s3://hapedge/')).toEqual({ bucket: 'hapedge' })
    expect(parseS3Url('s3://hapedge/team-a')).toEqual({ bucket: 'hapedge', prefix: 'team-a/' })
    expect(parseS3Url('s3://my.bucket-1/envs/prod/')).toEqual({ bucket: 'my.bucket-1', prefix: 'envs/prod/' })
    expect(s3Url({ bucket: 'hapedge', prefix: 'team-a/' })).toBe('s3://hapedge/team-a/')
  })

  it.each([['hapedge'], ['http://hapedge/x'], ['s3://'], ['s3://My_Bucket'], ['s3://ab'], ['s3://hapedge/a//b'], ['s3://hapedge/../b'], ['s3://hapedge/./b']])(
    'refuses %s',
    (text) => expect(parseS3Url(text)).toBeUndefined(),
  )
})
