/**
 * A turn of Node's event loop without a timer's 1 ms floor: the I/O that is ready (other
 * requests, storage) is handled before it resolves. Background work takes one before each slice
 * when nothing holds the foreground (Turns): a full resync of 20,000 Ingresses about 1,600,
 * which behind timers left the thread idle for over a second and a half.
 */
export const nodeTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
