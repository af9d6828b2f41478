import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FormBody } from '../../pages/form-body';
import { PageController } from '../../pages/page-controller.decorator';
import { SignUpPagesService } from './sign-up-pages.service';

/** The public sign-up page and the emailed link that opens the test account (SIGNUP_ENABLED). */
@PageController('sign-up')
export class SignUpPagesController {
  constructor(private readonly pages: SignUpPagesService) {}

  @Get()
  form() {
    return this.pages.form();
  }

  @Post()
  signUp(@Req() request: FastifyRequest, @Body() form: FormBody | undefined) {
    return this.pages.signUp(request, form);
  }

  @Get('verify/:token')
  verifyPage(@Param('token') token: string) {
    return this.pages.verifyPage(token);
  }

  @Post('verify/:token')
  verify(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Param('token') token: string) {
    return this.pages.verify(request, reply, token);
  }
}
