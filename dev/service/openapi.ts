/**
 * The OpenAPI 3.1 document of the reference service, built from the same field tables the
 * server fills, so that it describes exactly what the server returns (tests validate every
 * response they see against it).
 */
import {
  FUND_FIELD_SPECS,
  type FieldSpec,
  LP_FIELD_SPECS,
  LP_FIRMS_FIELD_SPECS,
  LP_LABELS_FIELD_SPECS,
} from '../../src/api/records';
import { OPERATIONS } from '../../src/api/operations';

type Schema = Record<string, unknown>;

function fieldSchema(spec: FieldSpec): Schema {
  switch (spec.type) {
    case 'string':
      return { type: ['string', 'null'] };
    case 'datetime':
      return { type: ['string', 'null'], format: 'date-time' };
    case 'integer':
      return { type: ['integer', 'null'] };
    case 'float':
      return { type: ['number', 'null'] };
    case 'boolean':
      return { type: ['boolean', 'null'] };
    case 'list':
      return { type: ['array', 'null'], items: { type: 'string' } };
    default:
      return {};
  }
}

function recordSchema(specs: readonly FieldSpec[]): Schema {
  return {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: Object.fromEntries(specs.map((s) => [s.name, s.name === 'id' ? { type: 'string' } : fieldSchema(s)])),
  };
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ 'application/json': { schema } });
const ok = (data: Schema, paginated = false) => ({
  description: 'OK',
  content: json({
    type: 'object',
    required: paginated ? ['data', 'pagination'] : ['data'],
    properties: { data, ...(paginated ? { pagination: ref('Pagination') } : {}) },
  }),
});
const errors = Object.fromEntries(
  ['400', '401', '403', '404', '405', '429', '500', '502', '503'].map((code) => [
    code,
    { description: 'Error', content: json(ref('Error')) },
  ]),
);

const q = (name: string, required: boolean, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required,
  schema,
  description,
});
const apiKey = q('apiKey', true, { type: 'string' }, 'Your API key.');
const page = q('page', false, { type: 'integer', minimum: 1, default: 1 }, 'Page number.');
const limit = q(
  'limit',
  false,
  { type: 'integer', minimum: 1, default: 10 },
  'Items per page (capped by the server; pagination.pageSize says the size used).',
);

export function openApiDocument(serverUrl: string, maxPageSize: number): Schema {
  const O = OPERATIONS;
  const idParam = (name: string) => q(name, true, { type: 'string' }, 'Identifier.');
  const op = (operationId: string, parameters: Schema[], response: Schema) => ({
    get: { operationId, parameters, responses: { '200': response, ...errors } },
  });
  const active = op(
    'getAllActiveLimitedPartners',
    [apiKey, page, limit],
    ok({ type: 'array', items: ref('LimitedPartner') }, true),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Investor and Venture Fund Data Service (reference implementation)',
      version: '1.0.0',
      description: `Read-only. Page size is capped at ${maxPageSize}.`,
    },
    servers: [{ url: serverUrl }],
    paths: {
      [O.getAllActiveLimitedPartners.paths[0]]: active,
      [O.getAllActiveLimitedPartners.paths[1]]: {
        get: { ...active.get, operationId: 'getAllActiveLimitedPartnersSample' },
      },
      [O.getLimitedPartnerById.paths[0]]: op(
        'getLimitedPartnerById',
        [apiKey, idParam('limitedPartnerId')],
        ok({ type: 'array', items: ref('LimitedPartner') }),
      ),
      [O.getLimitedPartnersAndTheirFirms.paths[0]]: op(
        'getLimitedPartnersAndTheirFirms',
        [apiKey, idParam('limitedPartnerId')],
        ok(ref('LimitedPartnerFirms')),
      ),
      [O.getLabelsByLimitedPartnerId.paths[0]]: op(
        'getLabelsByLimitedPartnerId',
        [apiKey, idParam('limitedPartnerId')],
        ok(ref('LimitedPartnerLabels')),
      ),
      [O.getVentureFundById.paths[0]]: op(
        'getVentureFundById',
        [apiKey, idParam('ventureFundId')],
        ok({ oneOf: [ref('VentureFund'), { type: 'array', minItems: 1, maxItems: 1, items: ref('VentureFund') }] }),
      ),
      [O.getIndustriesByVentureFundId.paths[0]]: op(
        'getIndustriesByVentureFundId',
        [apiKey, idParam('ventureFundId'), page, limit],
        ok({ type: 'array', items: ref('IndustriesItem') }, true),
      ),
      [O.getLastFundSizeByVentureFundId.paths[0]]: op(
        'getLastFundSizeByVentureFundId',
        [apiKey, idParam('ventureFundId')],
        ok(ref('LastFundSize')),
      ),
    },
    components: {
      schemas: {
        LimitedPartner: recordSchema(LP_FIELD_SPECS),
        LimitedPartnerFirms: recordSchema(LP_FIRMS_FIELD_SPECS),
        LimitedPartnerLabels: recordSchema(LP_LABELS_FIELD_SPECS),
        VentureFund: recordSchema(FUND_FIELD_SPECS),
        IndustriesItem: {
          type: 'object',
          required: ['industries'],
          additionalProperties: false,
          properties: { industries: { type: 'array', items: { type: 'string' } } },
        },
        LastFundSize: {
          type: 'object',
          required: ['lastFundSize'],
          additionalProperties: false,
          properties: { lastFundSize: { type: ['string', 'null'] } },
        },
        Pagination: {
          type: 'object',
          required: ['totalItems', 'totalPages', 'currentPage', 'pageSize'],
          additionalProperties: false,
          properties: {
            totalItems: { type: 'integer', minimum: 0 },
            totalPages: { type: 'integer', minimum: 0 },
            currentPage: { type: 'integer', minimum: 1 },
            pageSize: { type: 'integer', minimum: 1 },
          },
        },
        Error: {
          type: 'object',
          required: ['statusCode', 'error', 'message'],
          additionalProperties: false,
          properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  };
}
