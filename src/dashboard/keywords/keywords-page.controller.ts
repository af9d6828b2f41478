import { Body, Get, Param, Post, Query } from '@nestjs/common';
import type { FormBody } from '../../pages/form-body';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { KeywordsPageService } from './keywords-page.service';

@DashboardController(PAGES.keywords)
export class KeywordsPageController {
  constructor(private readonly keywords: KeywordsPageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.keywords.page(user, notice);
  }

  @Post()
  create(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.keywords.create(user, form);
  }

  @Get(':id/edit')
  edit(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.keywords.editPage(user, id);
  }

  @Post(':id')
  update(@CurrentUser() user: DashboardUser, @Param('id') id: string, @Body() form: FormBody | undefined) {
    return this.keywords.update(user, id, form);
  }

  @Post(':id/delete')
  delete(@CurrentUser() user: DashboardUser, @Param('id') id: string) {
    return this.keywords.delete(user, id);
  }
}
