import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BackgroundTasks } from '../common/background/background-tasks';
import { MailModule } from '../mail/mail.module';
import { RedisModule } from '../common/redis/redis.module';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SignInFailuresRepository } from './sign-in-failures.repository';
import { SignInService } from './sign-in.service';
import { UserLinksService } from './user-links.service';
import { UserTokensRepository } from './user-tokens.repository';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { RememberedDevices } from './two-factor/remembered-devices';
import { SignInChallenges } from './two-factor/sign-in-challenges';
import { TwoFactorRepository } from './two-factor/two-factor.repository';
import { TwoFactorService } from './two-factor/two-factor.service';

/** People, permissions, sessions, sign-in, emailed links and the audit log. No controllers: the dashboard serves the pages. */
@Module({
  // RedisModule: sign-in throttles per address (AddressCounter); imported here so the CLI's user commands, which start only their modules, have it.
  imports: [AccountsModule, MailModule, RedisModule],
  providers: [
    BackgroundTasks,
    UsersRepository,
    SessionsRepository,
    UserTokensRepository,
    SignInFailuresRepository,
    AuditLogRepository,
    AuditLogService,
    SessionsService,
    SignInService,
    UserLinksService,
    UsersService,
    TwoFactorRepository,
    TwoFactorService,
    SignInChallenges,
    RememberedDevices,
  ],
  exports: [UsersService, SessionsService, SignInService, UserLinksService, AuditLogService, TwoFactorService],
})
export class UsersModule {}
