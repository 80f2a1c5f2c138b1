/** @jsxImportSource hono/jsx */

/** How long ago `iso` was, as people say it: `12 s ago`, `3 min ago`, `5 h ago`, `2 d ago`. */
export function ago(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000))
  if (seconds < 60) return `${seconds} s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`
  return `${Math.floor(seconds / 86_400)} d ago`
}

/** A moment: relative, with the exact time on hover; a dash when there is none. */
export function When(props: { at: string | null; now: Date }) {
  if (props.at === null || Number.isNaN(Date.parse(props.at))) return <span class="muted">—</span>
  return (
    <time datetime={props.at} title={props.at}>
      {ago(props.at, props.now)}
    </time>
  )
}

/** A pill: `ok` green, `warn` amber, `bad` red, `pin` violet, `muted` grey. */
export function Badge(props: { kind: 'ok' | 'warn' | 'bad' | 'pin' | 'muted'; children: string | (string | number)[] }) {
  return <span class={`badge ${props.kind}`}>{props.children}</span>
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
