import { scaleDefaultRuns } from './property-runs.ts'

scaleDefaultRuns()
