import { CHANNEL_TYPE_SPECS } from '../codecs/channel-configs.js';
import { type JsonSchema, toJsonSchema } from './json-schema.js';
import { OPERATIONS, OPERATOR_OPERATIONS, type Operation } from './operations.js';
import { ErrorResponse } from './responses.js';

export interface DocumentOptions {
  version: string;
  pingPayloadLimitBytes: number;
  bodyLimitBytes: number;
}

/** `/v1/monitors/:monitorId` → `/v1/monitors/{monitorId}` */
export const openApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');

const PATH_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  suffix: 'start, success, fail, failure, log, or an exit code 0-255 (0 is SUCCESS, anything else FAILURE)',
  pingKey: "The project's ping key",
  slug: "The monitor's slug",
};

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The OpenAPI 3.1 document, built from the same codecs the handlers decode with. */
export function buildOpenApiDocument(options: DocumentOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of [...OPERATIONS, ...OPERATOR_OPERATIONS]) {
    const path = (paths[openApiPath(operation.path)] ??= {});
    path[operation.method] = describeOperation(operation, options);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vigil API',
      version: options.version,
      description:
        'Vigil watches scheduled jobs and HTTP endpoints and raises incidents when they misbehave.\n\n' +
        'REST calls under `/v1` need an `X-API-Key` header. Writes answer once the read models include them (a GET right after sees the change). ' +
        'Errors are `{ "error": "…" }`, sometimes with a `code`. The Ping API (`/v1/ping`, `/v1/s-ping`) needs no key.',
    },
    tags: [...new Set([...OPERATIONS, ...OPERATOR_OPERATIONS].map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key such as `vgl_live_…`' } },
      schemas: {
        Error: toJsonSchema(ErrorResponse, { closed: true }),
        ChannelConfigs: {
          description: 'The `config` of each channel type',
          anyOf: Object.entries(CHANNEL_TYPE_SPECS).map(([type, spec]) => ({ title: type, ...toJsonSchema(spec.codec) })),
        },
      },
    },
  };
}

function describeOperation(operation: Operation, options: DocumentOptions): JsonSchema {
  const pathParameters = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const parameters = [
    ...pathParameters.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: name.endsWith('Id') ? { type: 'string', format: 'uuid' } : { type: 'string' },
      ...(PATH_PARAMETER_DESCRIPTIONS[name] ? { description: PATH_PARAMETER_DESCRIPTIONS[name] } : {}),
    })),
    ...Object.entries(operation.query?.props ?? {}).map(([name, codec]) => ({ name, in: 'query', required: false, schema: toJsonSchema(codec) })),
    ...Object.entries(operation.listFilters ?? {}).map(([name, values]) => ({
      name,
      in: 'query',
      required: false,
      description: `Comma-separated; any of ${values.join(', ')}`,
      schema: { type: 'string' },
    })),
  ];
  const responses: Record<string, unknown> = {
    [operation.success.status]: {
      description: operation.success.description,
      ...(operation.success.body
        ? { content: { 'application/json': { schema: toJsonSchema(operation.success.body, { closed: true }) } } }
        : operation.success.contentType
          ? { content: { [operation.success.contentType]: { schema: { type: 'string' } } } }
          : {}),
    },
  };
  const takesInput = parameters.length > 0 || operation.body !== undefined;
  if (takesInput) responses['400'] = error('Invalid input: the `error` names the field and what it should be');
  if (!operation.public) {
    responses['401'] = error('Missing, malformed, unknown, expired or revoked API key');
    responses['403'] = error('The key lacks the scope (`code: INSUFFICIENT_API_KEY_SCOPE`) or its user the role');
    responses['429'] = {
      ...error('Too many requests for this key, or too many failed authentications from this address'),
      headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    };
  }
  if (pathParameters.length > 0) responses['404'] = error('Not found (or not visible to this key)');
  if (operation.body) {
    responses['413'] = error(`Body larger than ${options.bodyLimitBytes} bytes`);
    responses['415'] = error('Body is not application/json');
  }
  // What records something: a REST write, and every method of the Ping API.
  const ping = /^\/v1\/(s-)?ping\//.test(operation.path);
  if (ping || (!operation.public && operation.method !== 'get')) {
    responses['503'] = {
      ...error(
        ping
          ? 'The event store cannot write (the disk is full or failing): nothing was recorded; retry after Retry-After'
          : 'The event store cannot write (the disk is full or failing): nothing was recorded; or it was recorded but the read models did not catch up in time, and only the read needs retrying',
      ),
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
    };
  }
  return {
    operationId: `${operation.method}${operation.path.replace(/^\/v1/, '').replace(/[/:-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description || operation.access
      ? { description: [operation.description, operation.access && `**Access:** ${operation.access}`].filter(Boolean).join('\n\n') }
      : {}),
    security: operation.public ? [] : [{ apiKey: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(operation.body) } } } }
      : operation.payload
        ? {
            requestBody: {
              required: false,
              description: `The payload (e.g. the job's output); up to ${options.pingPayloadLimitBytes} bytes are kept`,
              content: { '*/*': { schema: { type: 'string' } } },
            },
          }
        : {}),
    responses,
  };
}
