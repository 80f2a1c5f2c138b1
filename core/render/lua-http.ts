/**
 * The Lua both shipped scripts use to send a request with HAProxy 2.6's own HTTP client
 * (`core.httpclient()`, since 2.5): external authentication asks its service with it
 * (external-auth-lua.ts), RequestMirror sends its copies with it (mirror-lua.ts). Each script
 * holds it as locals of its own, so a script never depends on the other being loaded.
 */

/**
 * HAProxy 2.6's HTTP client sends a request again (3 retries, which 2.6 cannot change) when the
 * server does not answer within its `timeout`: measured on 2.6.12, a silent server is asked 4
 * times, so a try gets a quarter of the time a caller allows.
 */
export const HTTP_CLIENT_TRIES = 4

export const LUA_HTTP = `-- Sending a request with HAProxy's HTTP client (lua-http.ts in hapedge).
-- The methods HAProxy 2.6's client can send (it has no other).
local CALLS = { GET = "get", HEAD = "head", POST = "post", PUT = "put", DELETE = "delete" }
-- Never copied from the client's request: hop-by-hop headers, and what the sender sets itself.
local NOT_SENT = {
  ["connection"] = true, ["keep-alive"] = true, ["proxy-connection"] = true, ["te"] = true, ["trailer"] = true,
  ["transfer-encoding"] = true, ["upgrade"] = true, ["host"] = true, ["content-length"] = true, ["expect"] = true,
}

local function fields(value)
  local list = {}
  for field in (value .. "|"):gmatch("([^|]*)|") do list[#list + 1] = field end
  return list
end

local function given(field)
  return field ~= nil and field ~= "" and field ~= "-"
end

-- The client's request headers as the HTTP client takes them (name: its values), but those NOT_SENT,
-- and with \`only\` (a set of names) only those.
local function request_headers(txn, only)
  local headers = {}
  for name, values in pairs(txn.http:req_get_headers()) do
    if not NOT_SENT[name] and (only == nil or only[name]) then
      local list = {}
      for i = 0, #values do
        if values[i] ~= nil then list[#list + 1] = values[i] end
      end
      headers[name] = list
    end
  end
  return headers
end

-- One request (url, headers, body, timeout) with a client of its own (one is never used twice), and its
-- answer, or nil for none (a method the client cannot send, a refused connection, no answer in time).
local function send(method, request)
  local call = CALLS[method]
  if call == nil then return nil end
  local client = core.httpclient()
  local ok, answer = pcall(client[call], client, request)
  if not ok or type(answer) ~= "table" or type(answer.status) ~= "number" then return nil end
  return answer
end
`
