/** Tests start the reference service the same way the workbench and benchmarks do. */
import { type RunningService, startService } from '../../dev/service/spawn';

export { DEMO_KEY, type RunningService, startService } from '../../dev/service/spawn';

/**
 * Services started once for the calling test file (before its tests, stopped after them), each
 * with `args`; the array fills in when they are up. For files that need the owner's service and
 * another one (an editor's address).
 */
export function servicesForThisFile(count: number, args: string[]): RunningService[] {
  const services: RunningService[] = [];
  beforeAll(async () => {
    services.push(...(await Promise.all(Array.from({ length: count }, () => startService(args)))));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
  });
  return services;
}

/** The ids of the service's active partners, in list order. */
export async function activeIds(svc: RunningService): Promise<string[]> {
  return (await (await fetch(`${svc.url}/__admin/active-ids`)).json()) as string[];
}
