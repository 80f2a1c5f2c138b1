// Preloaded into a benchmarked server (NODE_OPTIONS=--import …/trace-gc.mjs, where --trace-gc itself is refused):
// V8 then prints a line per collection with the heap used before and after it, which bench/serve-meter.ts reads.
import { setFlagsFromString } from 'node:v8'

setFlagsFromString('--trace-gc')
