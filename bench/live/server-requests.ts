// Counts the requests the Temporal frontend served, by operation, from the dev server's own
// Prometheus endpoint (`service_requests`), so a bench can say what its watchers cost the server.
export type RequestCounts = Map<string, number>;

/** The dev server prints "Temporal Metrics: http://host:port/metrics" when it starts. */
export function metricsUrlFrom(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const found = /Metrics:\s*(http\S+)/.exec(line);
    if (found) return found[1];
  }
  return undefined;
}

/** `service_requests` of the frontend in `namespace`, summed by operation. */
export async function frontendRequests(metricsUrl: string, namespace = 'default'): Promise<RequestCounts> {
  const text = await (await fetch(metricsUrl)).text();
  const counts: RequestCounts = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith('service_requests{') || !line.includes('service_name="frontend"') || !line.includes(`namespace="${namespace}"`)) continue;
    const operation = /operation="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (operation && Number.isFinite(value)) counts.set(operation, (counts.get(operation) ?? 0) + value);
  }
  return counts;
}

/** Requests per second of each operation between two readings. */
export function ratesBetween(before: RequestCounts, after: RequestCounts, seconds: number): Map<string, number> {
  const rates = new Map<string, number>();
  for (const [operation, count] of after) rates.set(operation, (count - (before.get(operation) ?? 0)) / seconds);
  return rates;
}
