import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { failure } from '../common/errors/error-catalogue';
import { AppConfig } from '../config/app-config';
import { readCookie } from '../pages/cookies';
import { addPageLocals } from '../pages/page-request';
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
    addPageLocals(request, {
      user: { displayName: user.name || user.email, email: user.email, isOwner: user.isOwner },
      account: { name: user.accountName, isTest: user.accountIsTest },
      nav: navigationFor(user, request.url.split('?')[0]),
    });
    const page = this.reflector.get<DashboardPage | undefined>(DASHBOARD_PAGE, context.getClass());
    if (page && !mayOpen(user, page.access)) throw failure(page.access === 'owner' ? 'ownerOnly' : 'permissionRequired');
    return true;
  }
}
