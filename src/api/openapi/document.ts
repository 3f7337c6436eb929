import { CHANNEL_TYPE_SPECS } from '../../web/codecs/channel-configs.js';
import { type JsonSchema, toJsonSchema } from '../../web/json-schema.js';
import { OPERATIONS, OPERATOR_OPERATIONS, type Operation } from './operations.js';
import { ErrorResponse } from './responses.js';
import { MIN_POSITION_HEADER, POSITION_HEADER } from '../position-token.js';

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
        'Errors are `{ "error": "…" }`, sometimes with a `code`. The Ping API (`/v1/ping`, `/v1/s-ping`) needs no key.\n\n' +
        'A write that recorded something, REST or ping, names where in the log in a `Vigil-Position` header: an opaque token. ' +
        'Send it back in `Vigil-Min-Position` and the request is answered only from read models that include that write ' +
        '(a ping is answered once it is in the log, before the read models have it), or 503 with `Retry-After` if they do not catch up in time. ' +
        'Without it, a request sees what the read models hold: every write acknowledged before it where Vigil runs as one process, ' +
        'possibly a moment behind the log where its roles run as separate processes.',
    },
    tags: [...new Set([...OPERATIONS, ...OPERATOR_OPERATIONS].map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key such as `vgl_live_…`' } },
      headers: {
        [POSITION_HEADER]: {
          description: `Where in the log this request wrote, when it recorded something: an opaque token to send back in ${MIN_POSITION_HEADER}`,
          schema: { type: 'string', pattern: '^v1\\.[0-9a-z]{1,11}$' },
        },
      },
      parameters: {
        [MIN_POSITION_HEADER]: {
          name: MIN_POSITION_HEADER,
          in: 'header',
          required: false,
          description:
            `One or more ${POSITION_HEADER} tokens, comma-separated: the request is answered only once the read models include the writes they name ` +
            '(or 503 with Retry-After if they do not in time). A malformed value is a 400 naming the header.',
          schema: { type: 'string' },
        },
      },
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
  // Every authenticated REST request may ask to see a write (readYourWrites); a write names its own.
  const rest = !operation.public && operation.path.startsWith('/v1/');
  const ping = /^\/v1\/(s-)?ping\//.test(operation.path);
  const writes = ping || (rest && operation.method !== 'get');
  const position = { [POSITION_HEADER]: { $ref: `#/components/headers/${POSITION_HEADER}` } };
  if (writes) Object.assign(responses[operation.success.status] as object, { headers: position });
  const takesInput = parameters.length > 0 || operation.body !== undefined || rest;
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
  // What records something: a REST write, and every method of the Ping API; and a read that waits for one.
  if (writes) {
    responses['503'] = {
      ...error(
        ping
          ? 'The event store cannot write (the disk is full or failing): nothing was recorded; retry after Retry-After'
          : `The event store cannot write (the disk is full or failing): nothing was recorded; or it was recorded (${POSITION_HEADER} names it) but the read models did not catch up in time, and only the read needs retrying`,
      ),
      headers: { 'Retry-After': { schema: { type: 'integer' } }, ...(ping ? {} : position) },
    };
  } else if (rest) {
    responses['503'] = {
      ...error(`The read models did not reach the writes ${MIN_POSITION_HEADER} names in time; retry after Retry-After`),
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
    ...(parameters.length > 0 || rest ? { parameters: [...parameters, ...(rest ? [{ $ref: `#/components/parameters/${MIN_POSITION_HEADER}` }] : [])] } : {}),
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
