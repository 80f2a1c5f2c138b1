import { REQUEST_URI_VARIABLE } from '../annotations/mirror-values.ts'
import { HTTP_CLIENT_TRIES, LUA_HTTP } from './lua-http.ts'

/**
 * The Lua hapedge ships for an HTTPRoute's RequestMirror, loaded by every generation
 * (render-global.ts) beside the external authentication's and written as one of its files. HAProxy
 * 2.6 has no `http-request mirror`; a SPOE agent would be one more process to run beside each
 * HAProxy. What a route asks for is data (its map value, render-mirror.ts), so a changed mirror is
 * a runtime map edit and only a new hapedge changes this file (a reload).
 *
 * The copy is sent by a task of its own (`core.register_task`): the action returns at once, so
 * the client's request goes on to its Service whatever the mirror does, and the copy's answer is
 * discarded. The mirror's endpoint is one of its Service's backend servers HAProxy would send to
 * (the runtime API keeps them), drawn per copy, so an endpoint's change is the backend's own edit.
 */

/** How long a mirror has to answer a copy, in milliseconds, all tries together: then the copy is given up. */
export const MIRROR_TIMEOUT_MS = 10_000

/**
 * The largest body copied, in bytes: the frontend waits for a mirrored request's body up to this
 * (render-mirror.ts); a request whose body is larger (or not whole in time) is not copied, since a
 * copy without all of its body would be another request.
 */
export const MIRROR_BODY_BOUND = 8192

/** The most copies in flight per HAProxy (its Lua state): a mirror that answers slowly or never costs no more, and later copies are not sent. */
export const MOST_MIRRORS_IN_FLIGHT = 256

export const MIRROR_ACTION = 'hapedge-mirror'

/** How often, at most, HAProxy's log is told of copies not sent for one reason, in seconds. */
export const MIRROR_SKIPS_TOLD_EVERY_S = 60

/** What begins the log line telling of copies not sent (MIRROR_LUA's `skip`). */
export const MIRROR_SKIPPED = 'hapedge mirror: copies not sent'

/** The transaction variable (`txn.<name>`) the frontend sets to the request's path and query as the client sent them (render-mirror.ts). */
export const MIRROR_URI_VARIABLE = 'mirroruri'

export const MIRROR_LUA = `-- Rendered by hapedge. Do not edit: the next generation replaces it.
-- RequestMirror and mirror-target: the route's mirrors are a map value hapedge validated, separated by ",", in
-- txn.mirror: BACKEND|NUMERATOR|DENOMINATOR (a Service's) or URL|1|1|HOST|BODY (mirror-target's). Each is drawn per
-- request (NUMERATOR of DENOMINATOR); a copy of the request (method, path and query, headers, and its body when whole
-- within ${MIRROR_BODY_BOUND} bytes) is sent to one ready server of BACKEND, or to URL with HOST as its Host (and no body
-- when BODY is off), by a task, and its answer discarded: the client's request goes on to its Service unchanged.
-- Per try: HAProxy 2.6's HTTP client tries ${HTTP_CLIENT_TRIES} times in all.
local TIMEOUT_MS = ${MIRROR_TIMEOUT_MS / HTTP_CLIENT_TRIES}
local BODY_BOUND = ${MIRROR_BODY_BOUND}
local MOST_IN_FLIGHT = ${MOST_MIRRORS_IN_FLIGHT}
local in_flight = 0
-- Copies not sent, by reason, since this HAProxy started: told in its log (stderr and its log targets) on the first, and
-- then at most once every ${MIRROR_SKIPS_TOLD_EVERY_S} s per reason, with the count so far.
local SKIPPED = {
  full = MOST_IN_FLIGHT .. " copies already in flight",
  endpoint = "no ready endpoint",
  body = "a body over " .. BODY_BOUND .. " bytes, or not whole",
  method = "a method HAProxy's client cannot send",
  url = "a URL that cannot be made",
}
local skipped, told_at = {}, {}

local function skip(reason, target)
  skipped[reason] = (skipped[reason] or 0) + 1
  local now = core.now().sec
  if told_at[reason] ~= nil and now - told_at[reason] < ${MIRROR_SKIPS_TOLD_EVERY_S} then return end
  told_at[reason] = now
  core.Warning("${MIRROR_SKIPPED} (" .. SKIPPED[reason] .. "): " .. skipped[reason] .. " since start, the last for " .. target ..
    "; told at most once a minute per reason")
end

${LUA_HTTP}
math.randomseed(core.now().sec * 1000000 + core.now().usec)

-- A server of the backend that takes requests (not in maintenance, down or draining: an empty slot is in
-- maintenance), drawn at random, as a URL's host and port; nil when it has none.
local function endpoint(backend)
  local proxy = core.backends[backend]
  if proxy == nil then return nil end
  local ready = {}
  for _, server in pairs(proxy.servers) do
    local status = server:get_stats().status or ""
    if status == "no check" or status:sub(1, 2) == "UP" then ready[#ready + 1] = server end
  end
  if #ready == 0 then return nil end
  local host, port = ready[math.random(#ready)]:get_addr():match("^(.*):(%d+)$")
  if host == nil then return nil end
  if host:find(":", 1, true) then host = "[" .. host .. "]" end
  return host .. ":" .. port
end

-- The request as the route's Service is sent it, or nil and why (a SKIPPED reason) when it cannot be copied whole: a
-- method HAProxy's client cannot send, or (\`with_body\`) a body larger than BODY_BOUND (the frontend waited for it up
-- to BODY_BOUND bytes, so one without Content-Length below that is whole). Without \`with_body\`, the copy has no body.
local function copy_of(txn, with_body)
  local method = txn.f:method()
  if CALLS[method] == nil then return nil, "method" end
  local headers = request_headers(txn, nil)
  headers["host"] = { txn.f:req_fhdr("host") }
  -- What \`option forwardfor if-none\` adds when the request is forwarded, after this action.
  if headers["x-forwarded-for"] == nil then headers["x-forwarded-for"] = { txn.f:src() } end
  local copy = { method = method, uri = txn.f:pathq() or "/", headers = headers }
  if not with_body then return copy end
  local length = txn.f:req_body_len() or 0
  local declared = tonumber(txn.f:req_fhdr("content-length") or "")
  if declared ~= nil and (length ~= declared or length > BODY_BOUND) then return nil, "body" end
  if declared == nil and length >= BODY_BOUND then return nil, "body" end
  if length > 0 or declared ~= nil then
    copy.body = txn.f:req_body() or ""
    headers["content-length"] = { tostring(#copy.body) }
  end
  return copy
end

-- A mirror-target's URL for a request: \`$request_uri\` is its path and query as the client sent them (txn.${MIRROR_URI_VARIABLE}, read
-- before a rewrite-target); a URL without it keeps its own path and is given the request's query (as NGINX's
-- proxy_pass sends a mirror), one without a path the request's path too.
local function target_url(template, uri)
  if template:find("${REQUEST_URI_VARIABLE}", 1, true) then return (template:gsub("%${REQUEST_URI_VARIABLE}", function() return uri end)) end
  local origin, path = template:match("^(https?://[^/?]+)(.*)$")
  if origin == nil then return nil end
  if path == "" then return origin .. uri end
  local query = uri:match("%?(.*)$")
  if query == nil or query == "" then return template end
  return template .. (template:find("?", 1, true) and "&" or "?") .. query
end

-- Sends \`request\` by a task of its own, unless MOST_IN_FLIGHT copies are already waiting for their answers.
local function dispatch(method, request, target)
  if in_flight >= MOST_IN_FLIGHT then return skip("full", target) end
  in_flight = in_flight + 1
  core.register_task(function()
    send(method, request)
    in_flight = in_flight - 1
  end)
end

core.register_action("${MIRROR_ACTION}", { "http-req" }, function(txn)
  local copies = {}
  local function copy(with_body)
    if copies[with_body] == nil then copies[with_body] = { copy_of(txn, with_body) } end
    return copies[with_body][1], copies[with_body][2]
  end
  for target in (txn:get_var("txn.mirror") or ""):gmatch("[^,]+") do
    local mirror = fields(target)
    local numerator, denominator = tonumber(mirror[2]), tonumber(mirror[3])
    if numerator ~= nil and denominator ~= nil and denominator >= 1 and math.random(denominator) <= numerator then
      local request, why = copy(not mirror[1]:match("^https?://") or mirror[5] == "on")
      if request == nil then
        skip(why, mirror[1])
      elseif mirror[1]:match("^https?://") then
        -- A mirror-target: URL|1|1|HOST|on or off (the request body).
        local url = target_url(mirror[1], txn:get_var("txn.${MIRROR_URI_VARIABLE}") or request.uri)
        if url == nil then
          skip("url", mirror[1])
        else
          local headers = {}
          for name, values in pairs(request.headers) do headers[name] = values end
          headers["host"] = { mirror[4] }
          dispatch(request.method, { url = url, headers = headers, body = request.body, timeout = TIMEOUT_MS }, mirror[1])
        end
      else
        local address = endpoint(mirror[1])
        if address == nil then
          skip("endpoint", mirror[1])
        else
          dispatch(request.method, { url = "http://" .. address .. request.uri, headers = request.headers, body = request.body, timeout = TIMEOUT_MS }, mirror[1])
        end
      end
    end
  end
end, 0)
`
