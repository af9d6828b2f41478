import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BackgroundTasks } from '../common/background/background-tasks';
import { RedisModule } from '../common/redis/redis.module';
import { MailModule } from '../mail/mail.module';
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
  ],
  exports: [UsersService, SessionsService, SignInService, UserLinksService, AuditLogService],
})
export class UsersModule {}
