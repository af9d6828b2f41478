import { Get, Param, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PageController } from '../../pages/page-controller.decorator';
import { SendersPageService } from './senders-page.service';

/** The link texted to a mobile being registered as a sender: no sign-in, works once, for 24 hours. */
@PageController('senders/confirm')
export class SenderConfirmPageController {
  constructor(private readonly senders: SendersPageService) {}

  @Get(':token')
  confirm(@Param('token') token: string, @Req() request: FastifyRequest) {
    return this.senders.confirmPage(token, request.ip);
  }
}
