import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../common/auth/authenticated-request';
import { CurrentCaller } from '../common/auth/current-caller.decorator';
import { ApiErrors } from '../common/http/api-errors.decorator';
import { pageOf } from '../common/http/pagination';
import { LinkClicksPageDto, LinkClicksQuery } from './dto/link-clicks.dto';
import { LinkClicksService } from './link-clicks.service';
import { RequiresScope } from '../common/auth/api-scopes';

@ApiTags('link tracking')
@RequiresScope('messages:read')
@Controller('v1/link-clicks')
export class LinkClicksController {
  constructor(private readonly clicks: LinkClicksService) {}

  @Get()
  @ApiOperation({
    operationId: 'listLinkClicks',
    summary: 'Clicks on shortened links',
    description:
      'One row per recipient and URL shortened by `shorten_urls`, for one message (`message_id`) or every message of a send (`send_id`). Link-preview fetchers, carrier scanners and HEAD requests are not counted. Links are kept SHORT_LINK_RETENTION_DAYS (default 396, 13 months) after they were made.',
  })
  @ApiOkResponse({ type: LinkClicksPageDto })
  @ApiErrors(400, 401, 405, 429, 503)
  page(@CurrentCaller() caller: Caller, @Query() query: LinkClicksQuery) {
    return this.clicks.page(caller.accountId, query, pageOf(query));
  }
}
