import { Resolver } from 'node:dns/promises';

export interface DnsInspection {
  records: { A: string[]; AAAA: string[]; CNAME: string[]; MX: { exchange: string; priority: number }[]; NS: string[] };
  resolution_errors: Record<string, string>;
  all_failed: boolean;
}

/** Asks for A, AAAA, CNAME, MX and NS at once; each failure is reported by its record type. */
export async function inspectDns(hostname: string, servers: readonly string[] | null, timeoutMs: number): Promise<DnsInspection> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  const [a, aaaa, cname, mx, ns] = await Promise.allSettled([
    resolver.resolve4(hostname),
    resolver.resolve6(hostname),
    resolver.resolveCname(hostname),
    resolver.resolveMx(hostname),
    resolver.resolveNs(hostname),
  ]);
  const errors: Record<string, string> = {};
  const take = <T>(type: string, result: PromiseSettledResult<T[]>): T[] => {
    if (result.status === 'fulfilled') return result.value;
    const reason = result.reason as NodeJS.ErrnoException;
    errors[type] = reason.code ?? reason.message;
    return [];
  };
  const records = { A: take('A', a), AAAA: take('AAAA', aaaa), CNAME: take('CNAME', cname), MX: take('MX', mx), NS: take('NS', ns) };
  return { records, resolution_errors: errors, all_failed: Object.keys(errors).length === 5 };
}
