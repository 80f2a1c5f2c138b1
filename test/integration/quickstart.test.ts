import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadObjects } from '../../processes/cli/load-objects.ts'
import { exampleQuickstart, EXAMPLE_BACKENDS, quickstartLines, quickstartSteps, type QuickstartStep } from '../../processes/cli/local-quickstart.ts'
import { eventually } from '../support/eventually.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { projectRoot } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/** A process started by a step, with what it said so far. */
interface Started {
  child: ChildProcess
  output: { stdout: string; stderr: string }
}

/**
 * What `npm start` prints to serve the example through HAProxy on this machine, run as printed:
 * `hapedge serve --example` in a directory of its own (which stands for the project root: the
 * data in `.hapedge`, the agent's in `.hapedge/agent`), then each step of the same quickstart
 * the printer renders, by spawn (a program and its arguments, not a copy of a shell line).
 * Only what would collide on a shared machine differs from the printed lines: the function's
 * port (any free one), the HTTP and HTTPS binds (patched to free ports), the agent's `--listen`,
 * the folder the backends serve, and `--poll 10m`, so that the change is seen to come by push (signed: hapedge serve keeps a deployment secret).
 */
describe('the local quickstart npm start prints', () => {
  const started: Started[] = []
  let root = ''
  afterAll(async () => {
    await Promise.all(started.map(({ child }) => stop(child)))
    if (root) await removeTempDir(root)
  })

  function start(program: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
    const child = spawn(program, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const output = { stdout: '', stderr: '' }
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
    const launched = { child, output }
    started.push(launched)
    return launched
  }

  /** Runs one step from `root` in `env` (which an `export` step changes): a background program is left running, a foreground one must exit 0. */
  async function run(step: QuickstartStep, env: NodeJS.ProcessEnv): Promise<Started | undefined> {
    if ('comment' in step) return undefined
    if ('write' in step) {
      // `echo` ends its line with a newline.
      await writeFile(resolve(root, step.write), `${step.text}\n`)
      return undefined
    }
    if ('export' in step) {
      env[step.export] =
        step.fromFile !== undefined ? (await readFile(resolve(root, step.fromFile), 'utf8')).trim() : `${env[step.export] ?? ''}:${step.append}`
      return undefined
    }
    const [program, ...args] = step.run.map((word) => (typeof word === 'string' ? word : resolve(root, word.absolute)))
    // The commands run from the project root; here `root` stands for it, so its entry point is named from the real one.
    const argv =
      program === 'node'
        ? [process.execPath, ...args.map((arg) => (arg === 'bin/hapedge.js' ? join(projectRoot, arg) : arg))]
        : [program === 'haproxy' ? haproxyBinary : program!, ...args]
    const launched = start(argv[0]!, argv.slice(1), env)
    if (step.background) return launched
    // 'close', not 'exit': what it printed is all read by then.
    const code = await new Promise<number | null>((done) => launched.child.once('close', done))
    expect(code, `${argv.join(' ')}:\n${launched.output.stdout}${launched.output.stderr}`).toBe(0)
    return launched
  }

  it('serves the example through HAProxy from what agent --once wrote, and takes a change the function pushes', async () => {
    for (const { port } of EXAMPLE_BACKENDS) expect(await portFree(port), `port ${port}, where the example's endpoints listen, is taken`).toBe(true)
    root = await makeTempDir('hapedge-quickstart')
    const env = { ...process.env }
    const serve = start(process.execPath, [join(projectRoot, 'bin/hapedge.js'), 'serve', '--port', '0', '--example'], env)
    const url = await eventually('hapedge serve listening', () => /serving on (http:\/\/\S+)/.exec(serve.output.stdout)?.[1], 30_000)
    const adminToken = await eventually('the admin token printed', () => /admin token: (\S+)/.exec(serve.output.stdout)?.[1], 30_000)
    // It points a person at the fleet page, which asks them to sign in.
    await eventually('the fleet page named', () => serve.output.stdout.includes(`fleet page: ${url}/fleet (sign in with the admin token)`), 30_000)
    const fleet = await fetch(`${url}/fleet`, { redirect: 'manual' })
    expect([fleet.status, fleet.headers.get('location')]).toEqual([303, '/fleet/login'])

    // What it prints is the quickstart for its own address, as the README shows it for the default one.
    const printed = quickstartLines(quickstartSteps(exampleQuickstart(url)))
      .map((line) => `  ${line}\n`)
      .join('')
    await eventually('the quickstart printed', () => serve.output.stdout.includes(printed), 30_000)

    // The example is registered with loopback binds; moved to free ports here, so that this test never meets a person's quickstart.
    const [httpPort, httpsPort, agentPort] = [await freePort(), await freePort(), await freePort()]
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }
    const patched = await fetch(`${url}/v1/clusters/example`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` }),
    })
    expect(patched.status, await patched.clone().text()).toBe(200)
    expect(await patched.json()).toMatchObject({ agentOrigins: ['http://127.0.0.1:*'] })

    const defaults = exampleQuickstart(url)
    const steps = quickstartSteps({
      ...defaults,
      www: join(root, 'www'),
      listen: `127.0.0.1:${agentPort}`,
      poll: '10m',
      http: { ...defaults.http, port: httpPort },
    })
    const ran: Started[] = []
    for (const step of steps) {
      const launched = await run(step, env)
      if (launched) ran.push(launched)
      // --once wrote agent.cfg: HAProxy starts on it before any following agent has run.
      if ('run' in step && step.run.includes('--once'))
        expect(await readFile(join(root, defaults.dir, 'agent.cfg'), 'utf8')).toBe(
          `global\n    stats socket ${join(root, defaults.dir, 'stats.sock')} level admin\n`,
        )
    }
    const curl = ran.at(-1)!
    expect(curl.output.stdout).toBe('served by web\n')
    const tls = await request(`https://127.0.0.1:${httpsPort}/`, { servername: 'shop.example.local', headers: { host: 'shop.example.local' } })
    expect(tls).toMatchObject({ status: 200, body: 'served by web\n' })

    // The following agent says what it follows, and how.
    const agent = ran.find(({ child }) => child.spawnargs.includes('--listen'))!
    await eventually('the agent saying what it follows', () =>
      agent.output.stdout.includes(
        `hapedge agent: following cluster example at ${url}: push on 127.0.0.1:${agentPort} (advertised as http://127.0.0.1:${agentPort}), poll every 10m\n`,
      ),
    )
    await eventually('the agent reporting where it takes pushes', async () => {
      const response = await fetch(`${url}/v1/clusters/example/agents`, { headers: admin })
      return ((await response.json()) as { agents: { notifyUrl: string | null }[] }).agents.some(
        ({ notifyUrl }) => notifyUrl === `http://127.0.0.1:${agentPort}`,
      )
    })

    // A new path, to the other backend, through the API: served within seconds, by push (the agent polls every ten minutes).
    const answer = async () => (await request(`http://127.0.0.1:${httpPort}/index.html`, { headers: { host: defaults.http.host } })).body
    expect(await answer()).toBe('served by web\n')
    const docs = (await loadObjects([join(projectRoot, 'infra/examples')]))
      .map(({ object }) => object as { kind: string; metadata: { name: string }; spec: { rules: { http: { paths: unknown[] } }[] } })
      .find((object) => object.kind === 'Ingress' && object.metadata.name === 'docs')!
    docs.spec.rules[0]!.http.paths.push({ path: '/index.html', pathType: 'Exact', backend: { service: { name: 'api', port: { number: 8080 } } } })
    const send = async (...objects: unknown[]) => {
      const posted = await fetch(`${url}/v1/clusters/example/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.HAPEDGE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: objects.map((object) => ({ type: 'MODIFIED', object })) }),
      })
      expect(posted.status).toBe(200)
      return ((await posted.json()) as { generation: number }).generation
    }
    const runtime = await send(docs)
    await eventually('the new path served through HAProxy', async () => (await answer()) === 'served by api\n', 10_000)
    // HAProxy serves a change a moment before the agent has said it took it.
    await eventually('the agent saying it applied the push at runtime', () =>
      new RegExp(
        `^hapedge agent: generation ${runtime} applied at runtime in \\d+ ms: \\d+ map entr(y|ies) \\([^)]* entry by entry\\) \\(by signed push\\)$`,
        'm',
      ).test(agent.output.stdout),
    )

    // A new Service is a new backend: a reload, checked by haproxy -c on the files in the agent's (relative) directory.
    const extra = { host: 'extra.example.local', namespace: 'shop', name: 'extra' }
    const reload = await send(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: extra.name, namespace: extra.namespace },
        spec: { ports: [{ name: 'http', port: 80, targetPort: 9002 }] },
      },
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: `${extra.name}-1`, namespace: extra.namespace, labels: { 'kubernetes.io/service-name': extra.name } },
        addressType: 'IPv4',
        ports: [{ name: 'http', port: 9002 }],
        endpoints: [{ addresses: ['127.0.0.1'] }],
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: extra.name, namespace: extra.namespace },
        spec: {
          rules: [
            { host: extra.host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: extra.name, port: { name: 'http' } } } }] } },
          ],
        },
      },
    )
    await eventually(
      'the new backend served through HAProxy',
      async () => (await request(`http://127.0.0.1:${httpPort}/`, { headers: { host: extra.host } })).body === 'served by api\n',
      20_000,
    )
    await eventually('the agent saying it reloaded for the push', () =>
      new RegExp(`^hapedge agent: generation ${reload} reloaded in \\d+ ms: backend shop_extra_http is new \\(by signed push\\)$`, 'm').test(
        agent.output.stdout,
      ),
    )
    expect(agent.output.stderr).toBe('')
  }, 120_000)
})

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer()
    server.once('error', () => done(false))
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
