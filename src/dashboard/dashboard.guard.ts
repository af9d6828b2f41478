import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { failure } from '../common/errors/error-catalogue';
import { AppConfig } from '../config/app-config';
import { readCookie } from '../pages/cookies';
import { addPageLocals } from '../pages/page-request';
import { TWO_FACTOR_SETUP_PATH } from '../pages/register-pages';
import { SessionsService } from '../users/sessions.service';
import { DashboardRequest, toDashboardUser } from './dashboard-user';
import { DASHBOARD_PAGE, DashboardPage, mayOpen, navigationFor } from './navigation';

/**
 * Every dashboard route: a live session (else the browser is sent to sign in), then the page's access
 * rule (else a 403 page). Adds the person and their navigation to what the layout shows.
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionsService,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const session = await this.sessions.resolve(readCookie(request, 'session', this.config.cookieSecure));
    if (!session) throw failure('signInRequired');
    const user = toDashboardUser(session, request.ip);
    request.dashboardUser = user;
    const path = request.url.split('?')[0];
    addPageLocals(request, {
      user: { displayName: user.name || user.email, email: user.email, isOwner: user.isOwner },
      account: { name: user.accountName, isTest: user.accountIsTest, sendingPaused: user.sendingPaused },
      // Held on the set-up page: no menu of pages that would only send them back.
      nav: user.mustSetUpTwoFactor ? [] : navigationFor(user, path),
    });
    // The account requires two-factor sign-in: until this user sets it up, every other route refuses
    // (a GET is sent to the set-up page), whatever the menu shows or the browser asks for.
    if (user.mustSetUpTwoFactor && path !== TWO_FACTOR_SETUP_PATH) throw failure('twoFactorSetupRequired');
    const page = this.reflector.get<DashboardPage | undefined>(DASHBOARD_PAGE, context.getClass());
    if (page && !mayOpen(user, page.access)) throw failure(page.access === 'owner' ? 'ownerOnly' : 'permissionRequired');
    return true;
  }
}
