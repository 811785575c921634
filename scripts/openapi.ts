/**
 * `npx tsx scripts/openapi.ts`: writes docs/openapi.json, the OpenAPI document the reference
 * service serves at `GET /openapi.json` when started with `npm run service` (default options,
 * http://127.0.0.1:8787). A test compares the file with what a running service generates, so
 * rerun this after changing the service's routes or field tables.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '../dev/service/openapi';
import { parseServiceArgs } from '../dev/service/options';

export function defaultOpenApiText(): string {
  const { host, port, options } = parseServiceArgs([], {});
  return `${JSON.stringify(openApiDocument(`http://${host}:${port}`, options.maxPageSize), null, 2)}\n`;
}

if (require.main === module) {
  const file = join(__dirname, '..', 'docs', 'openapi.json');
  writeFileSync(file, defaultOpenApiText());
  console.log(`wrote ${file}`);
}
