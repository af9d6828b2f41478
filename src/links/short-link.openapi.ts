import { getSchemaPath } from '@nestjs/swagger';
import { StatusDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';

/** Only 7-character base62 paths are short links, so every other unknown path stays a plain 404. */
export const SHORT_LINK_ROUTE = '/:code(^[0-9A-Za-z]{7}$)';

const envelope = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) } } } });

/**
 * The short link redirect in the OpenAPI document. The route is served by a bare Fastify handler
 * (bootstrap/short-link-route.ts) rather than a Nest controller, so no decorator describes it: this is
 * the operation those decorators produced, added to the generated paths before the document is finished.
 */
export function shortLinkOpenApi(): Record<string, unknown> {
  return {
    get: {
      operationId: 'followShortLink',
      summary: 'Follow a shortened link',
      description:
        'Outside /v1, no authentication. 302 to the original URL, recording the click; HEAD requests and link-preview fetchers or scanners are recorded apart and not counted. Links stop redirecting after LINK_RETENTION_DAYS (default 180). After SHORT_LINK_MISSES_PER_IP (default 30) unknown codes from one address in a window, every code answers 429 with Retry-After until the window ends. Errors are HTML pages for browsers and the `{"error": "..."}` envelope with `Accept: application/json`.',
      parameters: [{ name: 'code', required: true, in: 'path', description: '7 base62 characters', schema: { type: 'string', example: 'aZ3k9Qx' } }],
      responses: {
        '302': { description: 'Redirect to the original URL (`Location`)', headers: { Location: { description: 'The original URL', schema: { type: 'string' } } } },
        '404': envelope('Unknown or expired link'),
        '405': envelope(StatusDescription[405]),
        '429': envelope('Too many unknown links followed from this address'),
        '503': envelope(StatusDescription[503]),
        default: envelope('A redirect is the only success; anything else is an error in the envelope'),
      },
      tags: ['link tracking'],
      'x-public-page': true,
      security: [],
    },
  };
}
