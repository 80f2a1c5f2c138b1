/**
 * The sample fetches and converters a backend snippet may use. Each reads the request or
 * response being served, the client's connection or a constant, or transforms a value: none
 * reads a file, the environment, another backend, a stick table or a process-wide variable,
 * and none writes anything but the transaction's own variables. Names are HAProxy 2.6's
 * (`haproxy -dKsmp`, `-dKcnv`, `-dKacl`); the haproxy test suite checks them against the binary.
 */

/** Sample fetches: the request, the response, the client connection, constants and `var()` of this transaction. */
export const FETCHES: ReadonlySet<string> = new Set([
  // request
  'method', 'path', 'pathq', 'query', 'url', 'url_ip', 'url_port', 'url_param', 'urlp', 'urlp_val', 'base', 'base32', 'baseq',
  'req.ver', 'req_ver', 'req.hdr', 'req.fhdr', 'req.hdr_cnt', 'req.fhdr_cnt', 'req.hdr_ip', 'req.hdr_val', 'req.hdr_names',
  'hdr', 'hdr_cnt', 'hdr_ip', 'hdr_val', 'req.cook', 'req.cook_cnt', 'req.cook_val', 'cook', 'cook_cnt', 'cook_val',
  'req.body', 'req.body_len', 'req.body_param', 'req.body_size', 'http_first_req',
  'capture.req.hdr', 'capture.req.method', 'capture.req.uri', 'capture.req.ver', 'unique-id',
  // response
  'status', 'res.ver', 'resp_ver', 'res.hdr', 'res.fhdr', 'res.hdr_cnt', 'res.fhdr_cnt', 'res.hdr_ip', 'res.hdr_val', 'res.hdr_names',
  'shdr', 'shdr_cnt', 'shdr_ip', 'shdr_val', 'res.cook', 'res.cook_cnt', 'res.cook_val', 'scook', 'scook_cnt', 'scook_val',
  'res.comp', 'res.comp_algo', 'res.body', 'res.body_len', 'res.body_size', 'capture.res.hdr', 'capture.res.ver',
  // the client's connection
  'src', 'src_port', 'src_is_local', 'ssl_fc', 'ssl_fc_sni', 'ssl_fc_has_sni', 'ssl_fc_alpn', 'ssl_fc_protocol', 'ssl_fc_cipher',
  'ssl_c_used', 'ssl_c_verify', 'ssl_c_s_dn', 'ssl_c_i_dn',
  // constants and this transaction's variables
  'always_true', 'always_false', 'bool', 'int', 'str', 'bin', 'ipv4', 'ipv6', 'meth', 'rand', 'date', 'uuid', 'var',
])

/** ACL keywords that are a fetch with a matching method (`path_beg` is `path -m beg`), over the fetches above. */
export const ACL_KEYWORDS: ReadonlySet<string> = new Set([
  ...FETCHES,
  ...['base', 'cook', 'hdr', 'path', 'url', 'urlp', 'scook', 'shdr'].flatMap((fetch) => ['beg', 'dir', 'dom', 'end', 'len', 'reg', 'sub'].map((match) => `${fetch}_${match}`)),
  'ssl_fc_sni_end', 'ssl_fc_sni_reg',
])

/** Converters that only transform the value they are given (arithmetic, text, encodings, hashes, dates). */
export const CONVERTERS: ReadonlySet<string> = new Set([
  'add', 'sub', 'mul', 'div', 'mod', 'neg', 'and', 'or', 'xor', 'cpl', 'not', 'bool', 'odd', 'even',
  'lower', 'upper', 'ltrim', 'rtrim', 'cut_crlf', 'field', 'word', 'bytes', 'length', 'regsub', 'concat', 'add_item', 'strcmp', 'iif',
  'json', 'json_query', 'jwt_header_query', 'jwt_payload_query', 'host_only', 'port_only', 'language', 'ipmask',
  'base64', 'b64dec', 'ub64enc', 'ub64dec', 'hex', 'hex2i', 'htonl', 'be2dec', 'be2hex', 'url_dec', 'url_enc',
  'crc32', 'crc32c', 'djb2', 'sdbm', 'wt6', 'xxh3', 'xxh32', 'xxh64', 'sha1', 'sha2', 'digest', 'hmac', 'secure_memcmp',
  'http_date', 'ltime', 'utime',
])

/**
 * Every converter HAProxy 2.6 registers (`haproxy -dKcnv`). A word right after a sample
 * expression is read by HAProxy as one more converter when it names one (`acl a req.hdr(x)
 * map(file)`), so such words must be told from patterns. Names starting `lua.` are converters too.
 */
export const HAPROXY_CONVERTERS: ReadonlySet<string> = new Set([
  ...CONVERTERS,
  'aes_gcm_dec', 'capture-req', 'capture-res', 'debug', 'fix_is_valid', 'fix_tag_value', 'in_table', 'jwt_verify',
  'mqtt_field_value', 'mqtt_is_valid', 'nbsrv', 'protobuf', 'set-var', 'srv_queue', 'ungrpc', 'unset-var',
  ...['', '_beg', '_dir', '_dom', '_end', '_int', '_ip', '_reg', '_regm', '_str', '_sub'].flatMap((match) => [`map${match}`, `map${match}_int`, `map${match}_ip`]),
  ...['bytes_in_rate', 'bytes_out_rate', 'conn_cnt', 'conn_cur', 'conn_rate', 'expire', 'gpc', 'gpc0', 'gpc0_rate', 'gpc1', 'gpc1_rate', 'gpc_rate', 'gpt', 'gpt0',
    'http_err_cnt', 'http_err_rate', 'http_fail_cnt', 'http_fail_rate', 'http_req_cnt', 'http_req_rate', 'idle', 'kbytes_in', 'kbytes_out', 'server_id',
    'sess_cnt', 'sess_rate', 'trackers'].map((counter) => `table_${counter}`),
])

/**
 * Variables a snippet may read and write: the transaction's (`txn.`, `req.`, `res.`). `proc.`
 * variables are shared by every backend and `sess.` ones by every request of a client
 * connection, whatever backend serves them.
 */
export const OWN_VARIABLE = /^(txn|req|res)\.[A-Za-z0-9_.]+$/

/** An argument naming a variable other backends can see (arithmetic and `concat` converters take variable names). */
export const SHARED_VARIABLE = /^(proc|sess)\./

export function isConverterName(name: string): boolean {
  return HAPROXY_CONVERTERS.has(name) || name.startsWith('lua.')
}
