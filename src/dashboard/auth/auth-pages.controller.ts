import { Body, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FormBody } from '../../pages/form-body';
import { PageController } from '../../pages/page-controller.decorator';
import { redirectTo } from '../../pages/page-result';
import { PAGES } from '../navigation';
import { AuthPagesService } from './auth-pages.service';

/** Pages anyone may open: sign in, sign out, forgotten password, the emailed set-password links. */
@PageController('')
export class AuthPagesController {
  constructor(private readonly auth: AuthPagesService) {}

  @Get()
  home() {
    return redirectTo(PAGES.overview.path);
  }

  @Get('sign-in')
  signInPage(@Req() request: FastifyRequest, @Query() query: Record<string, string | undefined>) {
    return this.auth.signInPage(request, query);
  }

  @Post('sign-in')
  signIn(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: FormBody | undefined) {
    return this.auth.signIn(request, reply, form);
  }

  @Get('sign-in/two-factor')
  secondFactorPage(@Req() request: FastifyRequest, @Query() query: Record<string, string | undefined>) {
    return this.auth.secondFactorPage(request, query);
  }

  @Post('sign-in/two-factor')
  secondFactor(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @Body() form: FormBody | undefined) {
    return this.auth.secondFactor(request, reply, form);
  }

  @Post('sign-out')
  signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.auth.signOut(request, reply);
  }

  @Get('forgot-password')
  forgotPage() {
    return this.auth.forgotPage();
  }

  @Post('forgot-password')
  requestReset(@Body() form: FormBody | undefined) {
    return this.auth.requestReset(form);
  }

  @Get('set-password/:token')
  setPasswordPage(@Param('token') token: string) {
    return this.auth.setPasswordPage(token);
  }

  @Post('set-password/:token')
  setPassword(@Req() request: FastifyRequest, @Param('token') token: string, @Body() form: FormBody | undefined) {
    return this.auth.setPassword(request, token, form);
  }
}
