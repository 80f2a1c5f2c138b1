import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isClusterId } from '../../core/keys/cluster-keys.ts'
import { DEFAULT_OPTIONS } from '../../core/model/settings.ts'
import { haproxyConfigs } from '../../processes/agent/haproxy-control.ts'
import { agentCommand } from '../../processes/cli/agent-command.ts'
import { parseFlags, type FlagTable } from '../../processes/cli/flags.ts'
import { forwardCommand } from '../../processes/cli/forward-command.ts'
import { infraYamlFiles, readManifests, type KubeObject } from './infra-files.ts'
import { containersOf, environmentOf, expandedArgs, podTemplates, type Container } from './pod-templates.ts'

const objects = readManifests(infraYamlFiles().filter((path) => path.startsWith('cluster/'))).map(({ object }) => object)
const pods = podTemplates(objects)
const find = (kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name)
const workload = (name: string) => {
  const found = pods.find(({ workload }) => workload.metadata.name === name)
  if (!found) throw new Error(`no workload ${name} under infra/cluster/`)
  return found
}

/** The flags of `hapedge <command>` after `$(VAR)` expansion, through the command's own parser in the container's environment (an unknown or missing flag throws). */
function parsedFlags(container: Container, command: string, flags: FlagTable) {
  expect(container.command, container.name).toEqual(['hapedge'])
  const [name, ...args] = expandedArgs(container, objects)
  expect(name, container.name).toBe(command)
  return parseFlags(flags, args, Object.fromEntries(environmentOf(container, objects))) as Record<string, string | boolean | undefined>
}

describe('every pod under infra/cluster/', () => {
  it.each(pods.map((pod) => [pod.key, pod] as const))('%s runs as its own existing ServiceAccount, on volumes it declares', (_key, { spec }) => {
    expect(find('ServiceAccount', spec.serviceAccountName!)).toBeDefined()
    const volumes = new Set(spec.volumes?.map(({ name }) => name))
    for (const container of containersOf(spec))
      for (const mount of container.volumeMounts ?? []) expect(volumes, `${container.name} mounts ${mount.name}`).toContain(mount.name)
  })

  it.each(pods.map((pod) => [pod.key, pod] as const))('%s meets the restricted Pod Security Standard and bounds its memory', (_key, { spec }) => {
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } })
    for (const container of containersOf(spec)) {
      expect(container.securityContext, container.name).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      })
      expect(container.resources, container.name).toMatchObject({
        requests: { cpu: expect.any(String), memory: expect.any(String) },
        limits: { memory: expect.any(String) },
      })
    }
  })

  it.each(pods.map((pod) => [pod.key, pod] as const))('%s probes only ports its containers name', (_key, { spec }) => {
    for (const container of containersOf(spec)) {
      const ports = new Set(container.ports?.map(({ name }) => name))
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'].map((field) => container[field]).filter(Boolean)) {
        const port = (probe.httpGet ?? probe.tcpSocket).port
        expect(ports, `${container.name}: ${JSON.stringify(probe)}`).toContain(port)
      }
    }
  })

  it.each(pods.map((pod) => [pod.key, pod] as const))('%s takes the cluster token from the Secret the operator creates', (_key, { spec }) => {
    for (const container of containersOf(spec).filter(({ command }) => command?.[0] === 'hapedge')) {
      expect(
        container.env?.find(({ name }) => name === 'HAPEDGE_TOKEN'),
        container.name,
      ).toEqual({ name: 'HAPEDGE_TOKEN', valueFrom: { secretKeyRef: { name: 'hapedge-cluster-token', key: 'token' } } })
      expect(container.args?.join(' '), container.name).not.toContain('--token')
    }
  })
})

describe('the forwarder (infra/cluster/forwarder.yaml)', () => {
  const forwarder = workload('hapedge-forwarder')

  it('is one replica, never two at once', () => {
    expect(forwarder.workload.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } })
    expect(forwarder.spec.serviceAccountName).toBe('hapedge-forwarder')
  })

  it('runs `hapedge forward` with flags its parser takes, for the cluster the connection names', () => {
    const flags = parsedFlags(forwarder.spec.containers[0]!, 'forward', forwardCommand.flags)
    expect(isClusterId(String(flags.cluster))).toBe(true)
    expect(String(flags.source)).toMatch(/^https:\/\//)
    expect(flags['config-map']).toBe(DEFAULT_OPTIONS.configMap)
  })
})

describe('HAProxy and its agent (infra/cluster/haproxy.yaml)', () => {
  const haproxy = workload('hapedge-haproxy')
  const [once, sidecar] = haproxy.spec.initContainers!
  const server = haproxy.spec.containers.find(({ name }) => name === 'haproxy')!

  it('writes the current generation first, then starts the agent, then HAProxy', () => {
    expect([once!.name, sidecar!.name, ...haproxy.spec.containers.map(({ name }) => name)]).toEqual(['agent-once', 'agent', 'haproxy'])
    expect(once!.restartPolicy).toBeUndefined()
    // A sidecar: it keeps running beside HAProxy, and HAProxy starts only once its startup probe passed (agent.cfg is written by then).
    expect(sidecar).toMatchObject({ restartPolicy: 'Always', startupProbe: { httpGet: { path: '/healthz' } } })
  })

  it('runs both agents with flags `hapedge agent` takes, for the cluster the connection names', () => {
    const onceFlags = parsedFlags(once!, 'agent', agentCommand.flags)
    expect(onceFlags).toMatchObject({ once: true, source: expect.stringMatching(/^https:\/\//), cluster: expect.any(String), dir: expect.any(String) })
    expect(isClusterId(String(onceFlags.cluster))).toBe(true)
    const flags = parsedFlags(sidecar!, 'agent', agentCommand.flags)
    expect(flags).toMatchObject({
      once: false,
      source: onceFlags.source,
      cluster: onceFlags.cluster,
      dir: onceFlags.dir,
      'master-socket': expect.any(String),
      'stats-socket': expect.any(String),
      pod: 'hapedge-haproxy-7d4b9c-x2k8q',
    })
  })

  it('starts HAProxy in master-worker mode on exactly the files the agent checks and reloads, from its directory', () => {
    const flags = parsedFlags(sidecar!, 'agent', agentCommand.flags)
    expect(server.command).toEqual(['haproxy'])
    expect(server.args).toEqual(['-W', '-S', flags['master-socket'], ...haproxyConfigs(String(flags.dir)).flatMap((config) => ['-f', config])])
    expect(server.workingDir).toBe(flags.dir)
  })

  it('shares the generations and both sockets between the agents and HAProxy through the same volumes', () => {
    const flags = parsedFlags(sidecar!, 'agent', agentCommand.flags)
    const volumeAt = (container: Container, path: string) => container.volumeMounts?.find(({ mountPath }) => mountPath === path)?.name
    for (const path of [String(flags.dir), dirname(String(flags['master-socket'])), dirname(String(flags['stats-socket']))]) {
      const volume = volumeAt(sidecar!, path)
      expect(volume, path).toBeDefined()
      expect(volumeAt(server, path), path).toBe(volume)
    }
    expect(volumeAt(once!, String(flags.dir))).toBe(volumeAt(sidecar!, String(flags.dir)))
    expect(haproxy.spec.volumes!.filter(({ name }) => name !== 'tmp').every((volume) => 'emptyDir' in volume)).toBe(true)
  })

  it("listens where a cluster binds by default, and the Service and the agent's probes reach the named ports", () => {
    const port = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1))
    expect(server.ports).toEqual([
      { name: 'http', containerPort: port(DEFAULT_OPTIONS.httpBind) },
      { name: 'https', containerPort: port(DEFAULT_OPTIONS.httpsBind) },
    ])
    const flags = parsedFlags(sidecar!, 'agent', agentCommand.flags)
    expect(sidecar!.ports).toEqual([{ name: 'agent', containerPort: port(String(flags.listen)) }])
    const service = find('Service', 'hapedge-haproxy') as KubeObject
    expect(service.spec.ports.map(({ targetPort }: { targetPort: string }) => targetPort)).toEqual(['http', 'https'])
  })

  it('is selected by its Service and its disruption budget, and by nothing else in the namespace', () => {
    const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
      Object.entries(selector).every(([key, value]) => labels[key] === value)
    expect(selects(find('Service', 'hapedge-haproxy')!.spec.selector, haproxy.labels)).toBe(true)
    expect(selects(find('PodDisruptionBudget', 'hapedge-haproxy')!.spec.selector.matchLabels, haproxy.labels)).toBe(true)
    expect(selects(haproxy.workload.spec.selector.matchLabels, workload('hapedge-forwarder').labels)).toBe(false)
  })
})
