import { Get, Param, Req } from '@nestjs/common';
import { ApiDefaultResponse, ApiExtension, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { StatusDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { PageController } from '../pages/page-controller.decorator';
import { PUBLIC_LINK_ROUTE_CONFIG } from '../pages/page-route';
import { RouteConfig } from '@nestjs/platform-fastify';
import { redirectTo } from '../pages/page-result';
import { LinkClicksService } from './link-clicks.service';

/** Only 7-character base62 paths are short links, so every other unknown path stays a plain 404. */
export const SHORT_LINK_ROUTE = ':code(^[0-9A-Za-z]{7}$)';

/** `{SHORT_LINK_BASE}/{code}`: the redirect behind a shortened URL (no sign-in). */
@ApiTags('link tracking')
@PageController('', { documented: true })
export class ShortLinkController {
  constructor(private readonly clicks: LinkClicksService) {}

  @Get(SHORT_LINK_ROUTE)
  @RouteConfig(PUBLIC_LINK_ROUTE_CONFIG)
  @ApiExtension('x-public-page', true)
  @ApiOperation({
    operationId: 'followShortLink',
    summary: 'Follow a shortened link',
    description:
      'Outside /v1, no authentication. 302 to the original URL, recording the click; HEAD requests and link-preview fetchers or scanners are recorded apart and not counted. Links stop redirecting after LINK_RETENTION_DAYS (default 180). After SHORT_LINK_MISSES_PER_IP (default 30) unknown codes from one address in a window, every code answers 429 with Retry-After until the window ends. Errors are HTML pages for browsers and the `{"error": "..."}` envelope with `Accept: application/json`.',
  })
  @ApiParam({ name: 'code', description: '7 base62 characters', example: 'aZ3k9Qx' })
  @ApiResponse({ status: 302, description: 'Redirect to the original URL (`Location`)', headers: { Location: { description: 'The original URL', schema: { type: 'string' } } } })
  @ApiResponse({ status: 404, description: 'Unknown or expired link', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 429, description: 'Too many unknown links followed from this address', type: ErrorEnvelopeDto })
  @ApiDefaultResponse({ description: 'A redirect is the only success; anything else is an error in the envelope', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 405, description: StatusDescription[405], type: ErrorEnvelopeDto })
  @ApiResponse({ status: 503, description: StatusDescription[503], type: ErrorEnvelopeDto })
  async follow(@Param('code') code: string, @Req() request: FastifyRequest) {
    return redirectTo(await this.clicks.follow(code, request.method, request.headers['user-agent'], request.ip), 302);
  }
}
