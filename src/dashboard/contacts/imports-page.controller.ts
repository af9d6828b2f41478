import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FormBody } from '../../pages/form-body';
import { UPLOAD_ROUTE_CONFIG } from '../../pages/page-route';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { ImportsPageService } from './imports-page.service';

@DashboardController(PAGES.contactImports)
export class ImportsPageController {
  constructor(private readonly imports: ImportsPageService) {}

  @Get()
  list(@CurrentUser() user: DashboardUser, @Query() query: Record<string, unknown>) {
    return this.imports.list(user, query);
  }

  /** The file arrives as multipart/form-data (the only page route that takes one). */
  @Post()
  @RouteConfig(UPLOAD_ROUTE_CONFIG)
  upload(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.imports.upload(user, form);
  }

  @Get(':id')
  show(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.imports.show(user, id, query);
  }

  @Post(':id/start')
  start(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.imports.start(user, id, form);
  }
}
