// Just enough of the Prometheus text format to read the Temporal worker's own metrics (the SDK
// runtime's exporter): counters and gauges summed over their label sets, and histograms as
// cumulative buckets. Counters may carry a `_total` suffix or not (countersTotalSuffix).

export interface PromSnapshot {
  /** Sum of every series of a counter or gauge (either spelling of a counter's name). */
  value(name: string): number;
  /** A histogram summed over its label sets: count, sum and cumulative buckets by upper bound. */
  histogram(name: string): Histogram;
}

export interface Histogram {
  count: number;
  sum: number;
  buckets: { le: number; count: number }[];
}

export function parsePromText(text: string): PromSnapshot {
  const series = new Map<string, number>();
  const buckets = new Map<string, Map<number, number>>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const [, name, labels = '', raw] = match;
    const value = Number(raw);
    if (!Number.isFinite(value) && raw !== '+Inf') continue;
    if (name!.endsWith('_bucket')) {
      const le = /le="([^"]+)"/.exec(labels)?.[1];
      if (le === undefined) continue;
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
      const family = buckets.get(name!) ?? new Map<number, number>();
      family.set(bound, (family.get(bound) ?? 0) + value);
      buckets.set(name!, family);
      continue;
    }
    series.set(name!, (series.get(name!) ?? 0) + value);
  }
  const value = (name: string) => series.get(name) ?? series.get(`${name}_total`) ?? 0;
  return {
    value,
    histogram: (name) => ({
      count: value(`${name}_count`),
      sum: value(`${name}_sum`),
      buckets: [...(buckets.get(`${name}_bucket`) ?? new Map<number, number>())].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le),
    }),
  };
}

/** What a histogram counted between two snapshots. */
export function histogramDelta(before: Histogram, after: Histogram): Histogram {
  const earlier = new Map(before.buckets.map((b) => [b.le, b.count]));
  return { count: after.count - before.count, sum: after.sum - before.sum, buckets: after.buckets.map((b) => ({ le: b.le, count: b.count - (earlier.get(b.le) ?? 0) })) };
}

/** The upper bound of the bucket the p-th percentile falls in (a histogram knows no finer). */
export function histogramPercentileBound(histogram: Histogram, p: number): number {
  if (histogram.count === 0) return Number.NaN;
  const rank = (p / 100) * histogram.count;
  return histogram.buckets.find((b) => b.count >= rank)?.le ?? Number.POSITIVE_INFINITY;
}

export async function scrape(url: string): Promise<PromSnapshot> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`scraping ${url}: HTTP ${response.status}`);
  return parsePromText(await response.text());
}
