/**
 * Lets the rest of the process run before going on: timers, other requests' I/O and their
 * handlers, which a chain of promises (microtasks) never lets in. A long piece of work on one
 * cluster awaits this between its slices, so that one thread serving many clusters answers the
 * others meanwhile. A timer, not a microtask, because only a macrotask lets I/O callbacks run;
 * setTimeout is a web standard, so it holds on every platform.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
