export { Forwarder, type ForwarderOptions } from './forwarder.ts'
export { FunctionClient, DeliveryError, type FunctionTarget, type WriteResult } from './function-client.ts'
export { watchedResources } from './watched-resources.ts'
