import { relative, resolve } from 'node:path'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { tlsSecretProblems } from '../../core/kube/tls-secret-check.ts'
import { bindAddress } from '../../core/model/bind-address.ts'
import { describeWarning } from '../../core/model/ingress-annotations.ts'
import { DEFAULT_OPTIONS } from '../../core/model/settings.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { defineCommand } from './command.ts'
import { withDefaultNamespace } from './default-namespace.ts'
import { findDuplicates } from './find-duplicates.ts'
import { gatewayPortsFlag } from './gateway-port-flag.ts'
import type { FlagTable, FlagValues } from './flags.ts'
import { loadObjects } from './load-objects.ts'
import { ignoredByClass, nothingServed } from './nothing-served.ts'
import { UsageError } from './usage-error.ts'

const renderFlags = {
  in: { value: 'PATH', required: true, repeatable: true, description: 'a file or directory of Kubernetes objects, JSON or YAML' },
  out: { value: 'DIR', required: true, description: 'the directory to write the configuration and manifest.json into' },
  'http-bind': { value: 'ADDR:PORT', default: DEFAULT_OPTIONS.httpBind, description: 'where HAProxy listens for HTTP' },
  'https-bind': { value: 'ADDR:PORT', default: DEFAULT_OPTIONS.httpsBind, description: 'where HAProxy listens for HTTPS' },
  'ingress-class': { value: 'NAME', default: DEFAULT_OPTIONS.ingressClass, description: 'serve the Ingresses of this class' },
  'config-map': { value: 'NAMESPACE/NAME', default: DEFAULT_OPTIONS.configMap, description: 'the ConfigMap of global settings' },
  namespace: { value: 'NAME', default: 'default', description: 'the namespace of objects that name none, as kubectl apply gives them' },
  'gateway-port': {
    value: 'PORT/PROTOCOL[@ADDR:PORT]',
    repeatable: true,
    description: 'a Gateway listener port served on a socket of its own, as the cluster setting gatewayPorts (8443/HTTPS@127.0.0.1:9443)',
  },
  'allow-snippets': { description: "render Services' hapedge.io/backend-config-snippet annotations" },
} as const satisfies FlagTable

/** `hapedge render --in PATH… --out DIR`: the full rebuild from files. */
export const renderCommand = defineCommand({
  flags: renderFlags,
  example: 'hapedge render --in infra/examples --out .hapedge/example --http-bind 127.0.0.1:8080 --https-bind 127.0.0.1:8443',
  run: render,
})

async function render(values: FlagValues<typeof renderFlags>): Promise<number> {
  for (const flag of ['http-bind', 'https-bind'] as const) {
    const checked = bindAddress.safeParse(values[flag])
    if (!checked.success) throw new UsageError(`--${flag} ${values[flag]}: ${checked.error.issues[0]?.message}`)
  }

  const gatewayPorts = gatewayPortsFlag(values['gateway-port'], { httpBind: values['http-bind'], httpsBind: values['https-bind'] })

  const loaded = await loadObjects(values.in)
  const objects = loaded.map(({ object, source }) => ({ object: withDefaultNamespace(object, values.namespace), source }))
  for (const duplicate of findDuplicates(objects)) console.error(duplicate)
  const read = objects.map(({ object }) => object)
  const { state, model, layout, files } = fullRebuild(
    read,
    {
      ingressClass: values['ingress-class'],
      configMap: values['config-map'],
      httpBind: values['http-bind'],
      httpsBind: values['https-bind'],
      snippets: values['allow-snippets'] ? 'allowed' : 'forbidden',
      gatewayPorts,
    },
    await tlsSecretProblems(read),
  )
  for (const rejection of model.rejections) console.error(`${rejection.object}: ${rejection.reason}`)
  for (const warning of model.warnings) console.error(describeWarning(warning))
  const nothing = nothingServed(read, state, values.in)
  if (nothing) console.error(`hapedge render: ${nothing}`)
  const ignored = nothing ? undefined : ignoredByClass(state)
  if (ignored) console.error(`hapedge render: ${ignored}`)
  await writeRendered(values.out, layout)

  const dir = relative(process.cwd(), resolve(values.out)) || '.'
  console.log(
    `rendered ${files.size} files to ${dir}: ${model.hosts.size} hosts, ${model.backends.size} backends, ${model.certificates.size} certificates` +
      (model.rejections.length ? `, ${model.rejections.length} rejected (see above)` : '') +
      (model.warnings.length ? `, ${model.warnings.length} annotation warnings (see above)` : ''),
  )
  console.log(`serve them with: (cd ${dir} && haproxy -f .)`)
  return 0
}
