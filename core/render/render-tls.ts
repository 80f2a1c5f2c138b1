import type { ClusterModel } from '../model/derive-cluster.ts'
import type { HostConfig } from '../model/derive-host.ts'
import { compareText } from '../compare-text.ts'
import { splitHostOnPort } from '../model/gateway-ports.ts'
import { certificateFile, crtListOf, FILES, fileStem, portCrtList, type Entry } from './files.ts'
import type { GatewayPort } from '../model/settings.ts'
import { clientCaFile, clientCertFile, clientCertLine, hostsByClientCa } from './render-client-cert.ts'

/**
 * One crt-list line per certificate, filtered by the hosts it serves (SNI), keyed by the
 * certificate's path (its first word). Without a default certificate the HTTPS bind is
 * `strict-sni`: a name no line lists, or no name at all, ends the handshake, so that no tenant's
 * certificate is shown for another's name.
 */
export function crtListEntry(secret: string, hosts: Iterable<string>): Entry {
  const path = certificateFile(secret)
  // A host on an HTTPS port of its own (`foo.com:8443`) is asked for by its name, in that port's list (certificateListLines).
  const names = new Set([...hosts].map((host) => splitHostOnPort(host).name))
  return { key: path, text: `${[path, ...[...names].sort(compareText)].join(' ')}\n` }
}

/**
 * Where the default certificate (settings `default-ssl-certificate`) is written: a directory whose
 * name sorts before every namespace (they begin with a letter or digit), so that its line is the
 * crt-list's first, which HAProxy serves to every name no line lists.
 */
export function defaultCertificateFile(secret: string): string {
  return `tls/-default/${fileStem(secret)}.pem`
}

/**
 * The default certificate's line. Its filter is a name no client can ask for (an Ingress host is a
 * DNS name, which holds no `_`): were its own names indexed, they would compete with the
 * certificates of the Ingresses that claim them.
 */
export function defaultCrtListEntry(secret: string): Entry {
  const path = defaultCertificateFile(secret)
  return { key: path, text: `${path} ${DEFAULT_ONLY_FILTER}\n` }
}

const DEFAULT_ONLY_FILTER = 'hapedge_default_certificate'

/** The secrets whose certificate is served, with the hosts each serves. */
export function hostsBySecret(model: ClusterModel): Map<string, string[]> {
  const bySecret = new Map<string, string[]>()
  for (const config of model.hosts.values()) {
    if (!config.tlsSecret || !model.certificates.has(config.tlsSecret)) continue
    const hosts = bySecret.get(config.tlsSecret) ?? []
    hosts.push(config.host)
    bySecret.set(config.tlsSecret, hosts)
  }
  return bySecret
}

/** A certificate's lines and files: one line for its hosts that ask for no client certificate, and one per CA the others ask of (`''`: none). */
export interface CertificateLines {
  lines: Map<string, Entry>
  files: Map<string, string>
}

/** A certificate's crt-list lines and the files they name, for its hosts (`caPem`: a CA Secret's bundle, when it resolves). */
export function certificateLines(
  secret: string,
  pem: string,
  configs: Iterable<Pick<HostConfig, 'host' | 'clientCert'>>,
  caPem: (ca: string) => string | undefined,
): CertificateLines {
  const lines = new Map<string, Entry>()
  const files = new Map<string, string>()
  for (const [ca, hosts] of hostsByClientCa(configs)) {
    const bundle = ca === '' ? undefined : caPem(ca)
    // A CA that does not resolve refused its Ingress (client-cert.ts): no line, so its names get no certificate at all.
    if (ca !== '' && bundle === undefined) continue
    const line = ca === '' ? crtListEntry(secret, hosts) : clientCertLine(secret, ca, hosts)
    lines.set(ca, line)
    files.set(line.key, pem)
    if (bundle !== undefined) files.set(clientCaFile(secret, ca), bundle)
  }
  return { lines, files }
}

/** The crt-lists of these binds: the HTTPS bind's, and each HTTPS port of its own's (render-gateway-ports.ts). */
export function crtListsOf(gatewayPorts: readonly GatewayPort[] = []): string[] {
  return [FILES.crtList, ...gatewayPorts.filter((own) => own.protocol === 'HTTPS').map((own) => portCrtList(own.port))]
}

/**
 * A certificate's lines in each crt-list that lists it (certificateLines), for its hosts grouped by
 * the bind that serves them: a name on the HTTPS bind, or on an HTTPS port of its own
 * (`foo.com:8443`), so that each port offers its own listeners' certificate for the name.
 */
export function certificateListLines(
  secret: string,
  pem: string,
  configs: Iterable<Pick<HostConfig, 'host' | 'clientCert'>>,
  caPem: (ca: string) => string | undefined,
): { lists: Map<string, Map<string, Entry>>; files: Map<string, string> } {
  const byList = new Map<string, Pick<HostConfig, 'host' | 'clientCert'>[]>()
  for (const config of configs) {
    const list = crtListOf(splitHostOnPort(config.host).port)
    const listed = byList.get(list)
    if (listed) listed.push(config)
    else byList.set(list, [config])
  }
  const lists = new Map<string, Map<string, Entry>>()
  const files = new Map<string, string>()
  for (const [list, listed] of byList) {
    const certificate = certificateLines(secret, pem, listed, caPem)
    lists.set(list, certificate.lines)
    for (const [path, text] of certificate.files) files.set(path, text)
  }
  return { lists, files }
}

/** The certificate files a Secret's lines name, for its hosts: where a reader of a generation finds its certificate and its hosts' CA bundles. */
export function certificatePaths(
  secret: string,
  configs: Iterable<Pick<HostConfig, 'clientCert'> | undefined>,
): { certificates: string[]; cas: Map<string, string> } {
  const certificates = [certificateFile(secret)]
  const cas = new Map<string, string>()
  for (const config of configs) {
    const ca = config?.clientCert?.ca
    if (ca === undefined || cas.has(ca)) continue
    cas.set(ca, clientCaFile(secret, ca))
    certificates.push(clientCertFile(secret, ca))
  }
  return { certificates, cas }
}
