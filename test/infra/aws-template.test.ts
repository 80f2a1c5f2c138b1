import { existsSync } from 'node:fs'
import { basename, extname, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLambdaConfig } from '../../functions/platforms/lambda/lambda-config.ts'
import { cloudFormationTags } from './cloudformation-yaml.ts'
import { INFRA, readYamlDocuments } from './infra-files.ts'

const TEMPLATE = 'platform/aws/template.yaml'

interface Resource {
  Type: string
  Properties: Record<string, any>
  Metadata?: Record<string, any>
  DeletionPolicy?: string
}
interface Template {
  AWSTemplateFormatVersion: string
  Transform: string
  Parameters?: Record<string, Record<string, unknown>>
  Globals: { Function: Record<string, any> }
  Resources: Record<string, Resource>
  Outputs: Record<string, { Value: unknown }>
}

const [template] = readYamlDocuments(TEMPLATE, { customTags: cloudFormationTags }) as [Template]
const resources = Object.entries(template.Resources)
const functions = resources.filter(([, resource]) => resource.Type === 'AWS::Serverless::Function')
const resourceOfType = (type: string) => {
  const found = resources.filter(([, resource]) => resource.Type === type)
  expect(found, type).toHaveLength(1)
  return found[0]!
}

/** The resources SAM adds for a function: its role (unless it names one) and its URL. */
const generatedBySam = functions.flatMap(([id, { Properties }]) => [
  ...(Properties.Role ? [] : [`${id}Role`]),
  ...(Properties.FunctionUrlConfig ? [`${id}Url`] : []),
])

/** Every `Ref`, `Fn::GetAtt` and `${…}` of `Fn::Sub` in a part of the template, as the logical names they point at. */
function referencedNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedNames)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => {
    if (key === 'Ref') return [String(inner)]
    if (key === 'Fn::GetAtt') return [String((inner as string[])[0])]
    if (key === 'Fn::Sub') {
      const [text, variables = {}] = Array.isArray(inner) ? inner : [inner]
      const names = [...String(text).matchAll(/\$\{([^!}][^}]*)\}/g)].map(([, name]) => name!.split('.')[0]!).filter((name) => !(name in variables))
      return [...names, ...referencedNames(variables)]
    }
    return referencedNames(inner)
  })
}

/** What CloudFormation puts in an environment variable, with stand-ins for what only a deployment knows. */
function deployedValue(value: unknown): string {
  if (typeof value === 'string') return value
  const { Ref: ref, 'Fn::Sub': sub } = value as { Ref?: string; 'Fn::Sub'?: string }
  if (ref && template.Resources[ref]?.Type === 'AWS::S3::Bucket') return 'hapedge-bucket-1x2y3z4w5v6u'
  const secret = typeof sub === 'string' ? /^\{\{resolve:secretsmanager:\$\{(\w+)\}:SecretString\}\}$/.exec(sub) : null
  if (secret && template.Resources[secret[1]!]?.Type === 'AWS::SecretsManager::Secret')
    return 'x'.repeat(template.Resources[secret[1]!]!.Properties.GenerateSecretString.PasswordLength)
  throw new Error(`no stand-in for ${JSON.stringify(value)}`)
}

// Importing a function's entry compiles most of functions/ and core/: seconds while other suites load the machine.
describe(`infra/${TEMPLATE}`, { timeout: 60_000 }, () => {
  it('is an AWS SAM template', () => {
    expect(template).toMatchObject({ AWSTemplateFormatVersion: '2010-09-09', Transform: 'AWS::Serverless-2016-10-31' })
  })

  it('refers only to parameters, resources and pseudo parameters that exist', () => {
    const known = new Set([...Object.keys(template.Parameters ?? {}), ...Object.keys(template.Resources), ...generatedBySam])
    const unknown = referencedNames(template).filter((name) => !known.has(name) && !name.startsWith('AWS::'))
    expect(unknown).toEqual([])
  })

  it.each(functions)('%s bundles an entry point that exports its Handler as a function, for the runtime it names', async (_id, { Metadata, Properties }) => {
    expect(Metadata).toMatchObject({ BuildMethod: 'esbuild', BuildProperties: { Format: 'esm', OutExtension: ['.js=.mjs'], Target: 'node20' } })
    expect(template.Globals.Function.Runtime).toBe('nodejs20.x')
    const [entryPoint, ...others] = Metadata!.BuildProperties.EntryPoints as string[]
    expect(others).toEqual([])
    const entryFile = resolve(INFRA, 'platform/aws', Properties.CodeUri, entryPoint!)
    expect(existsSync(entryFile), entryFile).toBe(true)
    const [file, exported] = String(Properties.Handler).split('.')
    expect(file).toBe(basename(entryPoint!, extname(entryPoint!)))
    expect(typeof (await import(entryFile))[exported!]).toBe('function')
  })

  it.each(functions)('%s is given every variable the Lambda configuration requires, with values it accepts', (_id, { Properties }) => {
    const variables = { ...template.Globals.Function.Environment.Variables, ...Properties.Environment?.Variables }
    const environment = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, deployedValue(value)]))
    // What Lambda sets itself.
    Object.assign(environment, { AWS_REGION: 'eu-west-1', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(template.Parameters?.MemorySize?.Default) })
    expect(() => readLambdaConfig(environment)).not.toThrow()
    expect(template.Globals.Function.Environment.Variables.HAPEDGE_BUCKET).toEqual({ Ref: resourceOfType('AWS::S3::Bucket')[0] })
  })

  it('keeps the bucket private, encrypted and unversioned, and the data when the stack goes', () => {
    const [, bucket] = resourceOfType('AWS::S3::Bucket')
    expect(bucket.DeletionPolicy).toBe('Retain')
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    })
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toMatch(/^(AES256|aws:kms)$/)
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined()
  })

  it('lets both functions read, write, delete and list in that bucket, and do nothing else', () => {
    const [bucketId] = resourceOfType('AWS::S3::Bucket')
    const [policyId, policy] = resourceOfType('AWS::IAM::ManagedPolicy')
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] } },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], Resource: { 'Fn::Sub': `\${${bucketId}.Arn}/*` } },
    ])
    for (const [id, { Properties }] of functions) {
      expect(Properties.Policies, id).toEqual([{ Ref: policyId }])
      expect(Properties.Role, id).toBeUndefined()
    }
  })

  it('takes the admin token and the deployment secret from generated Secrets Manager secrets, never from a parameter in plain text', () => {
    for (const [variable, secretId] of [
      ['HAPEDGE_ADMIN_TOKEN', 'AdminToken'],
      ['HAPEDGE_SECRET', 'DeploymentSecret'],
    ] as const) {
      expect(template.Resources[secretId]!.Type).toBe('AWS::SecretsManager::Secret')
      expect(template.Resources[secretId]!.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32)
      expect(template.Globals.Function.Environment.Variables[variable]).toEqual({ 'Fn::Sub': `{{resolve:secretsmanager:\${${secretId}}:SecretString}}` })
    }
    for (const [name, parameter] of Object.entries(template.Parameters ?? {})) if (/token|secret/i.test(name)) expect(parameter.NoEcho, name).toBe(true)
  })

  it('serves the HTTP API on a function URL and collects garbage hourly on a schedule', () => {
    const byHandler = (handler: string) => functions.find(([, { Properties }]) => Properties.Handler === handler)
    const [apiId, api] = byHandler('handler.handler')!
    expect(api.Properties.FunctionUrlConfig).toMatchObject({ AuthType: 'NONE' })
    expect(template.Outputs.FunctionUrl!.Value).toEqual({ 'Fn::GetAtt': [`${apiId}Url`, 'FunctionUrl'] })
    const [, collector] = byHandler('scheduled.collectGarbageHandler')!
    const events = Object.values(collector.Properties.Events) as { Type: string; Properties: { Schedule: string } }[]
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ Type: 'Schedule', Properties: { Schedule: expect.stringMatching(/^(cron\(\d{1,2} \* \* \* \? \*\)|rate\(1 hour\))$/) } })
    expect(template.Outputs.BucketName!.Value).toEqual({ Ref: resourceOfType('AWS::S3::Bucket')[0] })
  })
})
