/**
 * The NGINX variables a translated snippet may give as a header's whole value: each is filled in by
 * HAProxy from a fixed sample (render-headers.ts), never from text the snippet wrote. `req_id` is a
 * request's unique id (32 hex digits, as NGINX's); `host` the Host without its port, lowercase;
 * `remote_addr` the client's address (a trusted proxy's X-Forwarded-For, as NGINX's realip module);
 * `scheme` `http` or `https`, as the client used.
 */
export const HEADER_VARIABLES = ['req_id', 'host', 'remote_addr', 'scheme'] as const
export type HeaderVariable = (typeof HEADER_VARIABLES)[number]

export const isHeaderVariable = (name: string): name is HeaderVariable => (HEADER_VARIABLES as readonly string[]).includes(name)
