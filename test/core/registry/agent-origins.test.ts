import { describe, expect, it } from 'vitest'
import { agentOrigins, notifyUrl, originAllowed } from '../../../core/registry/agent-origins.ts'

describe('the origins a cluster lets the function push to', () => {
  it('allows a URL only on an origin a pattern names: scheme, host or wildcard suffix, and port', () => {
    const patterns = ['http://127.0.0.1:*', 'https://*.pods.example.com', 'http://agent.example.com:8080']
    expect(originAllowed(patterns, 'http://127.0.0.1:41234')).toBe(true)
    expect(originAllowed(patterns, 'https://10-0-0-1.ns.pods.example.com/')).toBe(true)
    expect(originAllowed(patterns, 'http://agent.example.com:8080')).toBe(true)
    expect(originAllowed(patterns, 'http://agent.example.com')).toBe(false)
    expect(originAllowed(patterns, 'https://127.0.0.1:443')).toBe(false)
    expect(originAllowed(patterns, 'https://pods.example.com.evil.test')).toBe(false)
    expect(originAllowed(patterns, 'http://127.0.0.2:80')).toBe(false)
    expect(originAllowed([], 'http://127.0.0.1:80')).toBe(false)
  })

  it('never calls a link-local address, whatever the patterns say', () => {
    expect(originAllowed(['http://169.254.169.254:*'], 'http://169.254.169.254/latest/meta-data')).toBe(false)
    expect(originAllowed(['http://[fe80::1]:*'], 'http://[fe80::1]:80')).toBe(false)
  })

  it('refuses malformed patterns and notify URLs with credentials, queries or other schemes, saying what is wrong', () => {
    const patterns = agentOrigins.safeParse(['https://ok.example.com', 'ftp://x', 'http://a/path'])
    expect(patterns.success).toBe(false)
    expect(patterns.error!.issues.map((issue) => issue.path)).toEqual([[1], [2]])
    for (const url of ['http://user:pw@host:1', 'http://host:1/?x=1', 'file:///etc/passwd', 'not a url']) expect(notifyUrl.safeParse(url).success).toBe(false)
    expect(notifyUrl.safeParse('http://10.0.0.7:9090').success).toBe(true)
  })
})
