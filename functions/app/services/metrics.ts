/** The label that names a cluster: its series are shown to the admin only, since they list every cluster's id. */
const CLUSTER_LABEL = 'cluster'

type Labels = Record<string, string>

/** Values the platform reads when /metrics is rendered (what only it can see: the Node server's event loop), one per set of labels. */
export interface Gauge {
  name: string
  help: string
  read: () => { labels: Labels; value: number }[]
}
/** A counter's values, keyed by their labels as written out. */
type Series = Map<string, { labels: Labels; value: number }>

/**
 * This process's counters and latencies, as Prometheus text: each instance of a function
 * reports its own; the scraper (or Cloudflare's analytics) sums them.
 */
export class Metrics {
  private readonly counters = new Map<string, { help: string; values: Series }>()
  private readonly buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
  private readonly histograms = new Map<string, { counts: number[]; sum: number; count: number }>()

  constructor(private readonly gauges: readonly Gauge[] = []) {}

  count(name: string, help: string, labels: Labels = {}, by = 1): void {
    let counter = this.counters.get(name)
    if (!counter) this.counters.set(name, (counter = { help, values: new Map() }))
    add(counter.values, labels, by)
  }

  /** Records one request's duration under its route. */
  observe(route: string, seconds: number): void {
    const key = formatLabels({ route })
    let histogram = this.histograms.get(key)
    if (!histogram) this.histograms.set(key, (histogram = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }))
    this.buckets.forEach((bound, i) => {
      if (seconds <= bound) histogram.counts[i]!++
    })
    histogram.sum += seconds
    histogram.count++
  }

  /** Per cluster for the admin; for anyone else, each series summed over the clusters, so that no cluster id is shown. */
  render(options: { perCluster: boolean }): string {
    const lines: string[] = []
    for (const [name, { help, values }] of this.counters) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`)
      for (const [key, { value }] of options.perCluster ? values : withoutClusters(values)) lines.push(`${name}${key} ${value}`)
    }
    for (const { name, help, read } of this.gauges) {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`)
      for (const { labels, value } of read()) lines.push(`${name}${formatLabels(labels)} ${value}`)
    }
    const name = 'hapedge_request_duration_seconds'
    lines.push(`# HELP ${name} Time from request to response, by route.`, `# TYPE ${name} histogram`)
    for (const [labels, histogram] of this.histograms) {
      const route = labels.slice(1, -1)
      this.buckets.forEach((bound, i) => lines.push(`${name}_bucket{${route},le="${bound}"} ${histogram.counts[i]}`))
      lines.push(`${name}_bucket{${route},le="+Inf"} ${histogram.count}`, `${name}_sum${labels} ${histogram.sum}`, `${name}_count${labels} ${histogram.count}`)
    }
    return `${lines.join('\n')}\n`
  }
}

function add(values: Series, labels: Labels, by: number): void {
  const key = formatLabels(labels)
  const series = values.get(key)
  if (series) series.value += by
  else values.set(key, { labels, value: by })
}

/** The series with their cluster label dropped, those left alike summed. */
function withoutClusters(values: Series): Series {
  const summed: Series = new Map()
  for (const { labels, value } of values.values()) {
    const { [CLUSTER_LABEL]: _cluster, ...rest } = labels
    add(summed, rest, value)
  }
  return summed
}

/** `{a="1",b="2"}`, values escaped as the exposition format wants. */
function formatLabels(labels: Labels): string {
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`)
  return pairs.length ? `{${pairs.join(',')}}` : ''
}
