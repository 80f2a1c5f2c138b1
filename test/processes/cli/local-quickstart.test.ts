import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { exampleQuickstart, quickstartLines, quickstartSteps, shellWord } from '../../../processes/cli/local-quickstart.ts'
import { projectRoot } from '../../support/run-cli.ts'

describe('the local quickstart', () => {
  it('is in the README as npm start prints it for the default paths, one block to paste whole', async () => {
    const readme = await readFile(`${projectRoot}README.md`, 'utf8')
    const block = ['```sh', ...quickstartLines(quickstartSteps(exampleQuickstart())), '```'].join('\n')
    expect(readme).toContain(`\n${block}\n`)
  })

  it("keeps the admin token out of what the backends serve, and names HAProxy's master socket absolutely", () => {
    const lines = quickstartLines(quickstartSteps(exampleQuickstart()))
    const servers = lines.filter((line) => line.startsWith('python3 -m http.server'))
    expect(servers).toHaveLength(2)
    for (const line of servers) expect(line).toMatch(/--directory \/tmp\/hapedge-www\/\w+ &/)
    expect(lines).toContain('haproxy -W -S "$PWD/.hapedge/agent/master.sock" -f .hapedge/agent/agent.cfg -f .hapedge/agent/current &')
    // A data directory named absolutely (outside the current one) stays absolute.
    expect(quickstartLines(quickstartSteps(exampleQuickstart('http://127.0.0.1:8787', '/srv/hapedge')))).toContain(
      'haproxy -W -S /srv/hapedge/agent/master.sock -f /srv/hapedge/agent/agent.cfg -f /srv/hapedge/agent/current &',
    )
  })

  it('quotes a word only where the shell would read it otherwise', () => {
    expect(shellWord('.hapedge/agent')).toBe('.hapedge/agent')
    expect(shellWord('Host: a.docs.example.local')).toBe("'Host: a.docs.example.local'")
    expect(shellWord("it's $HOME")).toBe("'it'\\''s $HOME'")
  })
})
