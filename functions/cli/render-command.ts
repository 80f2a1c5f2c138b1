import { relative, resolve } from 'node:path'
import { fullRebuild } from '../../core/full-rebuild.ts'
import { bindAddress } from '../../core/model/bind-address.ts'
import { DEFAULT_OPTIONS } from '../../core/model/settings.ts'
import { writeRendered } from '../disk/write-rendered.ts'
import { withDefaultNamespace } from './default-namespace.ts'
import { findDuplicates } from './find-duplicates.ts'
import { InputError, loadObjects } from './load-objects.ts'
import { parseOptions, UsageError } from './usage-error.ts'

/** `hapedge render --in PATH… --out DIR`: the full rebuild from files. */
export async function renderCommand(args: string[]): Promise<number> {
  const values = parseOptions(args, {
    in: { type: 'string', multiple: true },
    out: { type: 'string' },
    'http-bind': { type: 'string', default: DEFAULT_OPTIONS.httpBind },
    'https-bind': { type: 'string', default: DEFAULT_OPTIONS.httpsBind },
    'ingress-class': { type: 'string', default: DEFAULT_OPTIONS.ingressClass },
    'config-map': { type: 'string', default: DEFAULT_OPTIONS.configMap },
    namespace: { type: 'string', default: 'default' },
    'allow-snippets': { type: 'boolean', default: false },
  })
  if (!values.in?.length) throw new UsageError('--in PATH is required (a file or directory of Kubernetes objects; repeatable)')
  if (!values.out) throw new UsageError('--out DIR is required')
  for (const flag of ['http-bind', 'https-bind'] as const) {
    const checked = bindAddress.safeParse(values[flag])
    if (!checked.success) throw new UsageError(`--${flag} ${values[flag]}: ${checked.error.issues[0]?.message}`)
  }

  let loaded
  try {
    loaded = await loadObjects(values.in)
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    console.error(`hapedge render: ${error.message}`)
    return 1
  }

  const objects = loaded.map(({ object, source }) => ({ object: withDefaultNamespace(object, values.namespace), source }))
  for (const duplicate of findDuplicates(objects)) console.error(duplicate)
  const { model, layout, files } = fullRebuild(
    objects.map(({ object }) => object),
    { ingressClass: values['ingress-class'], configMap: values['config-map'], httpBind: values['http-bind'], httpsBind: values['https-bind'], snippets: values['allow-snippets'] ? 'allowed' : 'forbidden' },
  )
  for (const rejection of model.rejections) console.error(`${rejection.object}: ${rejection.reason}`)
  await writeRendered(values.out, layout)

  const dir = relative(process.cwd(), resolve(values.out)) || '.'
  console.log(
    `rendered ${files.size} files to ${dir}: ${model.hosts.size} hosts, ${model.backends.size} backends, ${model.certificates.size} certificates` +
      (model.rejections.length ? `, ${model.rejections.length} rejected (see above)` : ''),
  )
  console.log(`serve them with: (cd ${dir} && haproxy -f .)`)
  return 0
}
