export { Forwarder, type ForwarderOptions } from './forwarder.ts'
export { FunctionClient, DeliveryError, type FunctionTarget, type WriteResult } from './function-client.ts'
export { watchedResources, type WatchedResource } from './watched-resources.ts'
