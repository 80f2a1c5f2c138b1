import { readFileSync } from 'node:fs'

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string
  version: string
  bin: Record<string, string>
  scripts: Record<string, string>
  dependencies: Record<string, string>
}

export { packageJson }

/** Where the Containerfile's image is published; its tag is the package's version. */
export const HAPEDGE_IMAGE = `ghcr.io/${packageJson.name}/${packageJson.name}:${packageJson.version}`

/** The image's commands: the package's bin and the haproxy it installs, which the agent checks with. */
export const IMAGE_COMMANDS = [...Object.keys(packageJson.bin), 'haproxy']
