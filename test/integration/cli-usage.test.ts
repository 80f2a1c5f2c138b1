import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConditionalS3Double, type ConditionalS3Double } from '../support/conditional-s3-double.ts'
import { freePort } from '../support/free-port.ts'
import { ingress } from '../support/objects.ts'
import { hapedge, type Run } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/** The real `hapedge` process, as a newcomer meets it: help on every command, and errors that say what to do. */

const COMMANDS = ['render', 'serve', 'agent', 'forward', 'gc']
/** A line of a Node stack trace: `    at fn (file.ts:12:3)`. */
const STACK_LINE = /at .*\(.*:\d+:\d+\)/

/** A run that failed with `code`, saying `message` after `hapedge <command>:` on stderr, and nothing on stdout or in a stack. */
function expectRefusal(run: Run, code: number, command: string, message: RegExp | string) {
  expect(run.code, run.stderr).toBe(code)
  expect(run.stderr).toMatch(new RegExp(`^hapedge ${command}: `))
  if (typeof message === 'string') expect(run.stderr).toContain(message)
  else expect(run.stderr).toMatch(message)
  expect(run.stderr).not.toMatch(STACK_LINE)
}

/** Holds a TCP port on 127.0.0.1 while `use` runs. */
async function withPortTaken<T>(use: (port: number) => Promise<T>): Promise<T> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await use((server.address() as AddressInfo).port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('help', () => {
  it.each([['--help'], ['-h']])('hapedge %s lists every command on stdout, exit 0', async (flag) => {
    const run = await hapedge([flag])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    for (const command of [...COMMANDS, 'help']) expect(run.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
  })

  // Every command once, and every spelling of help at least once (test/processes/cli/help.test.ts holds each help to its flag table).
  it.each([
    ['help', 'render'],
    ['render', '-h'],
    ['serve', '--help'],
    ['agent', '-h'],
    ['forward', '--help'],
    ['gc', '-h'],
  ])(
    "hapedge %s %s prints the command's usage, flags and an example on stdout, exit 0",
    async (...argv) => {
      const command = argv[0] === 'help' ? argv[1] : argv[0]
      const run = await hapedge(argv)
      expect(run).toMatchObject({ code: 0, stderr: '' })
      expect(run.stdout).toMatch(new RegExp(`^usage: hapedge ${command}\\b`))
      expect(run.stdout).toMatch(/^flags:\n {2}--/m)
      expect(run.stdout).toMatch(new RegExp(`^example:\\n {2}(\\S+=\\S+ )*hapedge ${command} `, 'm'))
    },
    30_000,
  )

  it('help for a command that does not exist is exit 2, naming it', async () => {
    const run = await hapedge(['help', 'deploy'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^hapedge: unknown command "deploy"/)
  })
})

describe('wrong words', () => {
  it('reports unknown and missing flags together, exit 2, with the usage and where to read more', async () => {
    const run = await hapedge(['render', '--inn', 'x', '--output', 'y'])
    expectRefusal(run, 2, 'render', "Unknown option '--inn'; Unknown option '--output'; --in is required; --out is required")
    expect(run.stderr).toMatch(/^usage: hapedge render --in PATH… --out DIR \[flags\] .*hapedge help render/m)
    expect(run.stdout).toBe('')
  })
})

describe('errors a person can act on', () => {
  let tmp: string
  beforeAll(async () => void (tmp = await makeTempDir('hapedge-cli-usage')))
  afterAll(() => removeTempDir(tmp))

  it('serve: a port in use is named, with what to do', async () => {
    const run = await withPortTaken((port) => hapedge(['serve', '--data', join(tmp, 'serve-data'), '--port', String(port)]))
    expectRefusal(run, 1, 'serve', /port \d+ on 127\.0\.0\.1 is in use \(another hapedge serve\?\); choose another with --port/)
  }, 30_000)

  it('agent: its --listen port in use is named, with what to do', async () => {
    const dir = join(tmp, 'agent-listen')
    await mkdir(dir)
    const source = `http://127.0.0.1:${await freePort()}`
    const run = await withPortTaken((port) =>
      hapedge([
        'agent',
        '--source',
        source,
        '--cluster',
        'c',
        '--token',
        't',
        '--dir',
        dir,
        '--master-socket',
        join(dir, 'master.sock'),
        '--listen',
        `127.0.0.1:${port}`,
      ]),
    )
    expectRefusal(run, 1, 'agent', /port \d+ on 127\.0\.0\.1 is in use \(another agent\?\); choose another with --listen/)
  }, 30_000)

  it('agent: a --dir that does not exist is named, with the mkdir that makes it', async () => {
    const dir = join(tmp, 'no-such-dir')
    const run = await hapedge(['agent', '--source', 'http://127.0.0.1:1', '--cluster', 'c', '--token', 't', '--dir', dir, '--once'])
    expectRefusal(run, 1, 'agent', `--dir ${dir} does not exist: create it (mkdir -p ${dir})`)
  }, 30_000)

  it('agent: an unreachable --source is named with the cause', async () => {
    const dir = join(tmp, 'agent-once')
    await mkdir(dir)
    const port = await freePort()
    const run = await hapedge(['agent', '--source', `http://127.0.0.1:${port}`, '--cluster', 'c', '--token', 't', '--dir', dir, '--once'])
    expectRefusal(run, 1, 'agent', `cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`)
  }, 30_000)

  it('gc: a --data that does not exist is exit 1, named', async () => {
    const data = join(tmp, 'no-such-data')
    const run = await hapedge(['gc', '--data', data])
    expectRefusal(run, 1, 'gc', `no data directory at ${data}`)
  }, 30_000)

  it('gc: without --cluster, it says it collects every cluster', async () => {
    const data = join(tmp, 'empty-data')
    await mkdir(data)
    const run = await hapedge(['gc', '--data', data])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(new RegExp(`^no --cluster named: collecting every cluster in ${data}\n`))
  }, 30_000)

  it('render: an empty directory is said on stderr', async () => {
    const empty = join(tmp, 'empty-input')
    await mkdir(empty)
    const run = await hapedge(['render', '--in', empty, '--out', join(tmp, 'empty-out')])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe(`hapedge render: no Kubernetes objects found in ${empty}; the configuration serves nothing (HAProxy answers 404)\n`)
  }, 30_000)

  it('render: only Ingresses of other classes are counted by class on stderr, with the flag that picks one', async () => {
    const input = join(tmp, 'other-classes.json')
    const items = [ingress({ name: 'a', className: 'nginx' }), ingress({ name: 'b', className: 'nginx' }), ingress({ name: 'c', className: 'traefik' })]
    await writeFile(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }))
    const run = await hapedge(['render', '--in', input, '--out', join(tmp, 'other-out'), '--ingress-class', 'hapedge'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe(
      'hapedge render: no Ingress of class hapedge found (3 Ingresses of other classes skipped: 2 nginx; 1 traefik); choose the class with --ingress-class NAME\n',
    )
  }, 30_000)

  it('render: Ingresses left out because of their class beside served ones are counted on stderr', async () => {
    const input = join(tmp, 'some-classes.json')
    const items = [
      ingress({ name: 'a', className: 'hapedge' }),
      ingress({ name: 'b', className: 'nginx' }),
      ingress({ name: 'c', className: 'traefik' }),
      ingress({ name: 'd', className: null }),
    ]
    await writeFile(input, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }))
    const run = await hapedge(['render', '--in', input, '--out', join(tmp, 'some-out')])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toBe(
      'hapedge render: not served because of their class: 2 Ingresses of other classes and 1 Ingress without a class (hapedge is not the default IngressClass)\n',
    )
  }, 30_000)

  it("serve: a --data it cannot make is named with the system's reason", async () => {
    const file = join(tmp, 'a-file')
    await writeFile(file, '')
    const run = await hapedge(['serve', '--data', join(file, 'data')])
    expectRefusal(run, 1, 'serve', `ENOTDIR: not a directory, mkdir '${join(file, 'data')}'`)
  }, 30_000)
})

describe('hapedge serve --store: what to fix, before anything is served', () => {
  let double: ConditionalS3Double
  let ignoring: ConditionalS3Double
  beforeAll(async () => {
    double = await startConditionalS3Double({ buckets: ['hapedge'] })
    ignoring = await startConditionalS3Double({ buckets: ['hapedge'], ignoreConditions: true })
  })
  afterAll(async () => {
    await double.stop()
    await ignoring.stop()
  })

  /** Credentials and region as a pod would have them; nothing from this machine's AWS configuration. */
  const aws = {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test-key',
    AWS_SECRET_ACCESS_KEY: 'test-secret',
    AWS_SESSION_TOKEN: undefined,
    AWS_PROFILE: undefined,
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
    HAPEDGE_S3_ENDPOINT: undefined,
    HAPEDGE_S3_FORCE_PATH_STYLE: undefined,
  }
  const serveOn = (endpoint: string, url = 's3://hapedge/team-a') => ['serve', '--store', url, '--s3-endpoint', endpoint, '--s3-force-path-style']

  it('wrong words are exit 2, every one named at once: --data beside --store, --example, a URL that is not s3://BUCKET[/PREFIX], an endpoint that is not http(s)', async () => {
    const run = await hapedge(['serve', '--data', 'x', '--store', 's3://My_Bucket/a', '--s3-endpoint', 'minio:9000', '--example'], aws)
    expectRefusal(
      run,
      2,
      'serve',
      '--data and --store: give one (local disk, or an S3 bucket); --example needs --data: the example keeps its token in the data directory; ' +
        '--store s3://My_Bucket/a: s3://BUCKET[/PREFIX], BUCKET an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens); ' +
        '--s3-endpoint (or HAPEDGE_S3_ENDPOINT) "minio:9000": an http(s) URL',
    )
    expectRefusal(
      await hapedge(['serve', '--s3-endpoint', 'http://127.0.0.1:9000', '--s3-force-path-style'], aws),
      2,
      'serve',
      '--s3-endpoint and --s3-force-path-style are for --store only',
    )
  }, 30_000)

  it('no region is exit 1, naming AWS_REGION', async () => {
    const run = await hapedge(serveOn(double.endpoint), { ...aws, AWS_REGION: undefined })
    expectRefusal(run, 1, 'serve', '--store s3://hapedge/team-a: AWS_REGION is not set: the region of the bucket')
  }, 30_000)

  it('no credentials is exit 1, naming the variables to set', async () => {
    const run = await hapedge(serveOn(double.endpoint), { ...aws, AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined })
    expectRefusal(run, 1, 'serve', 'no AWS credentials for s3://hapedge/team-a/: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY')
  }, 30_000)

  it('a bucket the server does not have, and a server that does not answer, are exit 1, naming the store, the endpoint and the cause', async () => {
    const missing = await hapedge(serveOn(double.endpoint, 's3://elsewhere/team-a'), aws)
    expectRefusal(
      missing,
      1,
      'serve',
      `cannot use s3://elsewhere/team-a/ at ${double.endpoint}: storage put registry/deployment/conditional-writes failed: NoSuchBucket`,
    )
    const port = await freePort()
    const unreachable = await hapedge(serveOn(`http://127.0.0.1:${port}`), aws)
    expectRefusal(unreachable, 1, 'serve', `cannot use s3://hapedge/team-a/ at http://127.0.0.1:${port}: `)
    expect(unreachable.stderr).toContain('ECONNREFUSED')
  }, 60_000)

  it('a server that ignores conditional writes is refused, exit 1: replicas on it would overwrite each other', async () => {
    const run = await hapedge(serveOn(ignoring.endpoint), aws)
    expectRefusal(
      run,
      1,
      'serve',
      `s3://hapedge/team-a/ at ${ignoring.endpoint} ignores conditional writes (If-None-Match: * on a key that exists; If-Match with another etag; If-Match on a key that does not exist)`,
    )
  }, 30_000)
})
