import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { describeIngress } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'
import { aliasTarget } from './alias-notices.ts'

/**
 * server-alias (ingress-nginx, haproxy-ingress): more names served exactly as the Ingress's host.
 * An alias is a host of its own in the index (hostsOf), so the host's derivation sees every
 * Ingress that names it, by a rule or as an alias; it becomes a hosts-map entry `alias → host`
 * (a runtime map edit). A name some Ingress's rules serve is never taken by an alias, and of two
 * Ingresses naming one alias the older has it: the other claims are rejections naming both.
 */

/** The aliases an Ingress asks for, lowercase (the frontend compares the Host header lowercased). */
export function serverAliasesOf(ingress: Ingress): string[] {
  return (ingressAnnotations(ingress).rendered['server-alias'] ?? []).map((alias) => alias.toLowerCase())
}

/**
 * The host `host` is served as when no rule serves it and Ingresses name it as an alias (in
 * precedence order): the oldest's first host; the other claims, and every claim on a host some
 * rule serves (`servedBy`, the owner of its first route), are rejected naming both.
 */
export function hostAlias(host: string, ingresses: readonly Ingress[], servedBy: string | undefined, rejections: Rejection[]): string | undefined {
  let chosen: { target: string; owner: string } | undefined
  for (const ingress of ingresses) {
    if (!serverAliasesOf(ingress).includes(host)) continue
    const target = aliasTarget(ingress)
    if (target === undefined) continue
    const owner = describeIngress(ingress)
    if (servedBy !== undefined)
      rejections.push({
        object: owner,
        reason: `server-alias "${host}" is a host of ${servedBy === owner ? 'its own rules' : servedBy}; not served as an alias`,
      })
    else if (chosen)
      rejections.push({
        object: owner,
        reason: `server-alias "${host}" is already an alias of ${chosen.owner} (served as "${chosen.target}"); not served as this Ingress's`,
      })
    else chosen = { target, owner }
  }
  return chosen?.target
}
