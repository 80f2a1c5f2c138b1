import { isClusterId } from '../../core/keys/cluster-keys.ts'
import { UsageError } from './usage-error.ts'

/** `--cluster ID`: a cluster id as registration takes it, so it can name nothing but a cluster. */
export function clusterFlag(id: string): string {
  if (!isClusterId(id)) throw new UsageError(`--cluster ${JSON.stringify(id)}: a DNS label (lowercase letters, digits, '-')`)
  return id
}

/** `--source URL`: the function's http(s) URL, without trailing slashes, so routes can be appended to it. */
export function sourceFlag(source: string): string {
  if (!/^https?:\/\/[^/]+/.test(source) || !URL.canParse(source)) throw new UsageError(`--source ${source}: an http(s) URL of the hapedge function`)
  return source.replace(/\/+$/, '')
}
