/**
 * The Lua hapedge ships for external authentication, loaded by every generation (render-global.ts)
 * and written as one of its files, so the agent pulls it as it pulls a map. It is the same for
 * every cluster: what a route asks for is data (its map value, render-external-auth.ts), so a
 * changed auth URL is a runtime map edit and only a new hapedge changes this file (a reload).
 *
 * Why Lua and HAProxy 2.6's own HTTP client (`core.httpclient()`, since 2.5) rather than a SPOE
 * agent: the request is held in HAProxy and asked with HAProxy's own resolver, TLS and timeouts,
 * with nothing else to deploy, run or keep alive beside each HAProxy; an agent would be one more
 * process whose absence had to fail closed too. The script only ever leaves a verdict: the
 * frontend's rules answer, and anything but "pass" (an error in the script included) is refused.
 */

import { HTTP_CLIENT_TRIES, LUA_HTTP } from './lua-http.ts'

/** How long the auth service has to answer, in milliseconds, all tries together: later is a 500, never a pass. */
export const AUTH_TIMEOUT_MS = 10_000

export const EXTERNAL_AUTH_ACTION = 'hapedge-external-auth'

export const EXTERNAL_AUTH_LUA = `-- Rendered by hapedge. Do not edit: the next generation replaces it.
-- External authentication (auth-url): the route's settings are a map value hapedge validated,
-- METHOD|URL|SIGNIN|HEADERS|REQUEST_REDIRECT[|REQUEST_HEADERS] ("-" for none), in txn.extauth. The auth
-- service is asked with the client's headers (all but hop-by-hop ones, or those REQUEST_HEADERS names) and no body; the verdict is left in
-- txn.extauthverdict for the frontend's rules, which let only "pass" through.
-- Per try: HAProxy 2.6's HTTP client tries ${HTTP_CLIENT_TRIES} times in all.
local TIMEOUT_MS = ${AUTH_TIMEOUT_MS / HTTP_CLIENT_TRIES}

${LUA_HTTP}
-- NGINX's set_escape_uri: everything but unreserved characters percent-encoded.
local function escape(text)
  return (text:gsub("[^A-Za-z0-9%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

-- A header's values (HAProxy numbers them from 0), joined as one.
local function joined(values)
  local list = {}
  if values == nil then return nil end
  for i = 0, #values do
    if values[i] ~= nil then list[#list + 1] = values[i] end
  end
  if #list == 0 then return nil end
  return table.concat(list, ", ")
end

core.register_action("${EXTERNAL_AUTH_ACTION}", { "http-req" }, function(txn)
  local route = fields(txn:get_var("txn.extauth") or "")
  local url = route[2]
  if CALLS[route[1]] == nil or not given(url) then return end
  local uri = txn.f:pathq() or "/"
  local scheme = txn:get_var("txn.scheme") or "http"
  local host = txn:get_var("txn.host") or ""
  local http_host = txn.f:req_fhdr("host") or ""
  if not http_host:match("^[%w%.%-]+:?%d*$") then http_host = host end
  local only = nil
  if route[6] ~= nil then
    only = {}
    if given(route[6]) then
      for name in route[6]:gmatch("[^,]+") do only[name] = true end
    end
  end
  local headers = request_headers(txn, only)
  headers["x-original-uri"] = { uri }
  headers["x-original-url"] = { scheme .. "://" .. http_host .. uri }
  headers["x-original-method"] = { txn.f:method() }
  headers["x-scheme"] = { scheme }
  headers["x-real-ip"] = { txn.f:src() }
  headers["x-auth-request-redirect"] = { given(route[5]) and route[5] or uri }
  local answer = send(route[1], { url = url, headers = headers, timeout = TIMEOUT_MS })
  if answer == nil then return end
  local status = answer.status
  local answered = answer.headers or {}
  if status >= 200 and status < 300 then
    if given(route[4]) then
      for name in route[4]:gmatch("[^,]+") do
        txn.http:req_del_header(name)
        local value = joined(answered[name])
        if value ~= nil then txn.http:req_set_header(name, value) end
      end
    end
    txn:set_var("txn.extauthverdict", "pass")
  elseif status == 401 and given(route[3]) then
    local variables = { host = host, http_host = http_host, scheme = scheme, request_uri = uri, escaped_request_uri = escape(uri) }
    txn:set_var("txn.extauthlocation", (route[3]:gsub("%$([%a_][%w_]*)", variables)))
    txn:set_var("txn.extauthverdict", "signin")
  elseif status == 401 or status == 403 then
    local challenge = joined(answered["www-authenticate"])
    if status == 401 and challenge ~= nil then txn:set_var("txn.extauthchallenge", challenge) end
    txn:set_var("txn.extauthverdict", tostring(status))
  end
end, 0)
`
