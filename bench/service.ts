/**
 * Benchmark of the reference service alone: start-up time and peak memory (VmHWM of the child
 * process) at 2,500 and 200,000 partners, and requests/second for getLimitedPartnerById over
 * keep-alive HTTP on loopback. Not a test: it reports figures.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { DEMO_KEY, startService } from '../test/helpers/service';

function peakKb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
}

function getJson(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

export interface ServiceBench {
  partners: number;
  startupMs: number;
  firstPageMs: number;
  peakMemoryMb: number;
  requestsPerSecond?: number;
}

export async function benchService(partners: number, measureRps: boolean, seconds = 3): Promise<ServiceBench> {
  const t0 = performance.now();
  const svc = await startService(['--partners', String(partners), '--funds', '600']);
  const startupMs = performance.now() - t0;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  try {
    const t1 = performance.now();
    await getJson(agent, `${svc.url}/api/active-partners-data/getAllActivePartnersData?apiKey=${DEMO_KEY}&limit=100`);
    const firstPageMs = performance.now() - t1;
    let requestsPerSecond: number | undefined;
    if (measureRps) {
      let done = 0;
      const end = Date.now() + seconds * 1000;
      const worker = async (w: number) => {
        for (let i = 0; Date.now() < end; i++) {
          const id = `lp_${((w * 7919 + i * 104729) % partners).toString(36).padStart(5, '0')}`;
          await getJson(
            agent,
            `${svc.url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=${id}`,
          );
          done++;
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
      requestsPerSecond = Math.round(done / seconds);
    }
    return {
      partners,
      startupMs: Math.round(startupMs),
      firstPageMs: Math.round(firstPageMs),
      peakMemoryMb: Math.round(peakKb(svc.process.pid as number) / 1024),
      requestsPerSecond,
    };
  } finally {
    agent.destroy();
    await svc.stop();
  }
}

if (require.main === module) {
  (async () => {
    const rows = [await benchService(2500, true), await benchService(200000, false)];
    console.table(rows);
  })();
}
