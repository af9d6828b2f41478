import { applyDecorators, SetMetadata } from '@nestjs/common';
import { PageController } from '../pages/page-controller.decorator';
import { DashboardGuard } from './dashboard.guard';
import { DASHBOARD_PAGE, type DashboardPage } from './navigation';

/** A dashboard page group: a page controller at the page's path, for signed-in people its access rule admits. */
export function DashboardController(page: DashboardPage): ClassDecorator {
  return applyDecorators(SetMetadata(DASHBOARD_PAGE, page), PageController(page.path, { guards: [DashboardGuard] }));
}
