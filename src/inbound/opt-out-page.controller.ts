import { Body, Get, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtension, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { StatusDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import type { FormBody } from '../pages/form-body';
import { PageController } from '../pages/page-controller.decorator';
import { PUBLIC_LINK_ROUTE_CONFIG } from '../pages/page-route';
import { RouteConfig } from '@nestjs/platform-fastify';
import { OptOutPageService } from './opt-out-page.service';

const CODE = { name: 'code', description: "The account's opt-out code (10 characters) or a recipient's (7)", example: 'aZ3k9Qx' };
const HTML = { 'text/html': { schema: { type: 'string' } } };

/**
 * `{SHORT_LINK_BASE}/o/{code}`, the page behind `{optout}`: no sign-in, no JavaScript needed. It lives
 * with STOP replies because an opt-out by link has exactly their effects (OptOutService).
 */
@ApiTags('link tracking')
@PageController('o', { documented: true })
export class OptOutPageController {
  constructor(private readonly page: OptOutPageService) {}

  @Get(':code')
  @RouteConfig(PUBLIC_LINK_ROUTE_CONFIG)
  @ApiExtension('x-public-page', true)
  @ApiOperation({
    operationId: 'showOptOutPage',
    summary: 'The opt-out page',
    description:
      'Outside /v1, no authentication. An HTML page asking to confirm (a per-recipient link) or for the mobile number (the account link). Errors are HTML pages for browsers and the envelope with `Accept: application/json`.',
  })
  @ApiParam(CODE)
  @ApiResponse({ status: 200, description: 'The page', content: HTML })
  @ApiResponse({ status: 404, description: 'Unknown link', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 405, description: StatusDescription[405], type: ErrorEnvelopeDto })
  @ApiResponse({ status: 429, description: 'Too many unknown links asked for from this address', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 503, description: StatusDescription[503], type: ErrorEnvelopeDto })
  show(@Param('code') code: string, @Req() request: FastifyRequest) {
    return this.page.show(code, request.ip);
  }

  @Post(':code')
  @RouteConfig(PUBLIC_LINK_ROUTE_CONFIG)
  @ApiExtension('x-public-page', true)
  @ApiOperation({
    operationId: 'confirmOptOut',
    summary: 'Unsubscribe through the opt-out page',
    description:
      'The page’s form (`application/x-www-form-urlencoded`, with its `_csrf` token and, for the account link, `number`). The number joins the account’s unsubscribe list with `source: link` and gets every effect of a STOP reply. The answer is the same for any valid number. Limited per IP address (429).',
  })
  @ApiParam(CODE)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    required: false,
    description: 'The page’s form',
    schema: {
      type: 'object',
      properties: {
        _csrf: { type: 'string', description: 'The token of the page the form came from' },
        number: { type: 'string', description: 'The account link only', example: '0412 345 678' },
      },
    },
  })
  @ApiResponse({ status: 200, description: 'Unsubscribed', content: HTML })
  @ApiResponse({ status: 400, description: 'Not a mobile number (the form again, with the error)', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 403, description: 'Missing or wrong CSRF token', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 404, description: 'Unknown link', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 405, description: StatusDescription[405], type: ErrorEnvelopeDto })
  @ApiResponse({ status: 413, description: StatusDescription[413], type: ErrorEnvelopeDto })
  @ApiResponse({ status: 415, description: 'Not a form', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 429, description: 'Too many attempts from this address', type: ErrorEnvelopeDto })
  @ApiResponse({ status: 503, description: StatusDescription[503], type: ErrorEnvelopeDto })
  confirm(@Param('code') code: string, @Body() form: FormBody | undefined, @Req() request: FastifyRequest) {
    return this.page.confirm(code, form, request.ip);
  }
}
