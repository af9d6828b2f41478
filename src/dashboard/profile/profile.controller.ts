import { Body, Get, Injectable, Post, Query } from '@nestjs/common';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { MIN_PASSWORD_LENGTH } from '../../users/password-policy';
import { UsersService } from '../../users/users.service';
import { TwoFactorService } from '../../users/two-factor/two-factor.service';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

const rawField = (form: FormBody | undefined, name: string) => (form && typeof form[name] === 'string' ? (form[name] as string) : '');

/** Your profile: your name, and changing your password (which signs out your other sessions). */
@Injectable()
export class ProfilePageService {
  constructor(
    private readonly users: UsersService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async page(user: DashboardUser, notice?: unknown, error?: FormError): Promise<PageResult> {
    const twoFactorOn = await this.twoFactor.isEnabled(user.userId!);
    return view(
      'dashboard/views/profile',
      { title: 'Your profile', notice: noticeFor(notice), ...errorModel(error), me: { email: user.email, name: user.name }, minLength: MIN_PASSWORD_LENGTH, twoFactorOn },
      error?.status ?? 200,
    );
  }

  async rename(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        await this.users.rename(user, formText(form, 'name'));
        return redirectTo(withNotice(PAGES.profile.path, 'renamed'));
      },
      (error) => this.page(user, undefined, error),
    );
  }

  async changePassword(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        await this.users.changePassword(user, rawField(form, 'current'), rawField(form, 'password'), rawField(form, 'confirmation'));
        return redirectTo(withNotice(PAGES.profile.path, 'password_changed'));
      },
      (error) => this.page(user, undefined, error),
    );
  }
}

@DashboardController(PAGES.profile)
export class ProfileController {
  constructor(private readonly profile: ProfilePageService) {}

  @Get()
  show(@CurrentUser() user: DashboardUser, @Query('notice') notice: unknown) {
    return this.profile.page(user, notice);
  }

  @Post('name')
  rename(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.profile.rename(user, form);
  }

  @Post('password')
  changePassword(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.profile.changePassword(user, form);
  }
}
