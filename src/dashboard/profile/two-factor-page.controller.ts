import { Body, Get, Injectable, Post } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { TwoFactorService } from '../../users/two-factor/two-factor.service';
import { DashboardController } from '../dashboard-controller.decorator';
import { CurrentUser, type DashboardUser } from '../dashboard-user';
import { PAGES } from '../navigation';
import { withNotice } from '../notices';

const VIEW = 'dashboard/views/two-factor';

/** Your two-factor sign-in: set it up with an authenticator app (QR code or typed secret), or turn it off. */
@Injectable()
export class TwoFactorPageService {
  constructor(private readonly twoFactor: TwoFactorService) {}

  async page(user: DashboardUser, error?: FormError): Promise<PageResult> {
    const status = await this.twoFactor.status(user.userId!);
    const required = user.twoFactorRequired;
    if (status.enabled)
      return view(VIEW, { title: 'Two-factor sign-in', enabled: true, required, recoveryCodesLeft: status.recoveryCodesLeft, ...errorModel(error) }, error?.status ?? 200);
    const enrolment = await this.twoFactor.enrolment(user);
    return view(VIEW, { title: 'Two-factor sign-in', enrolment, required, ...errorModel(error) }, error?.status ?? 200);
  }

  async confirm(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => view(VIEW, { title: 'Your recovery codes', recoveryCodes: await this.twoFactor.confirmEnrolment(user, formText(form, 'code')) }),
      (error) => this.page(user, error),
    );
  }

  async disable(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        if (user.twoFactorRequired) throw failure('twoFactorRequiredByAccount');
        await this.twoFactor.disable(user, formText(form, 'code'));
        return redirectTo(withNotice(PAGES.profile.path, 'two_factor_off'));
      },
      (error) => this.page(user, error),
    );
  }
}

@DashboardController(PAGES.profile)
export class TwoFactorPageController {
  constructor(private readonly pages: TwoFactorPageService) {}

  @Get('two-factor')
  show(@CurrentUser() user: DashboardUser) {
    return this.pages.page(user);
  }

  @Post('two-factor')
  confirm(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.pages.confirm(user, form);
  }

  @Post('two-factor/disable')
  disable(@CurrentUser() user: DashboardUser, @Body() form: FormBody | undefined) {
    return this.pages.disable(user, form);
  }
}
