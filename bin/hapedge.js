#!/usr/bin/env node
// Runs the TypeScript sources directly (through tsx), so `npx hapedge` needs no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../processes/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
