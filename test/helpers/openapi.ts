/** Validates real responses against the service's own /openapi.json with Ajv (JSON Schema 2020-12). */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface ResponseValidator {
  (path: string, status: number, body: unknown): void;
  count: number;
}

export async function responseValidator(serviceUrl: string): Promise<ResponseValidator> {
  const doc = (await (await fetch(`${serviceUrl}/openapi.json`)).json()) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const paths = doc.paths as Record<string, { get: { responses: Record<string, unknown> } }>;
  const validate = ((path: string, status: number, body: unknown) => {
    const op = paths[path];
    if (!op) throw new Error(`path ${path} is not in /openapi.json`);
    if (!op.get.responses[String(status)]) throw new Error(`status ${status} of ${path} is not in /openapi.json`);
    const pointer = `openapi.json#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/${status}/content/application~1json/schema`;
    const check = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
    if (!check(body))
      throw new Error(`${path} ${status} does not match /openapi.json: ${ajv.errorsText(check.errors)}`);
    validate.count++;
  }) as ResponseValidator;
  validate.count = 0;
  return validate;
}
