import { AccountsService } from '../../accounts/accounts.service';
import { UsageText } from '../../common/errors/error-catalogue';
import { PERMISSIONS } from '../../users/permissions';
import { LINK_LIFETIME_MS } from '../../users/user-links.service';
import { UsersModule } from '../../users/users.module';
import { MAX_NAME_LENGTH, UsersService } from '../../users/users.service';
import { TwoFactorService } from '../../users/two-factor/two-factor.service';
import { positiveId, UsageError } from '../cli-args';
import { defineCommand } from '../command';
import { emailFlag } from '../flag-values';
import { userView } from './views';

export const COMMANDS = [
  defineCommand({
    name: 'user:create',
    summary: 'a dashboard user, emailed a set-password link (24 h), also printed',
    description: 'The first user of an account must be its --owner (who can do everything); others hold the permissions given.',
    options: {
      account: { type: 'string', value: 'ID', required: true, help: 'the account' },
      email: { type: 'string', value: 'EMAIL', required: true, help: 'where they sign in and get the link' },
      name: { type: 'string', value: 'NAME', maxLength: MAX_NAME_LENGTH, help: 'their name' },
      owner: { type: 'boolean', help: 'the account owner' },
      permission: { type: 'string', value: 'P', multiple: true, help: PERMISSIONS.join(', ') },
    },
    examples: ['--account 1 --email owner@example.com.au --owner', '--account 1 --email staff@example.com.au --permission manage_senders'],
    modules: [UsersModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      const address = emailFlag(v.email, 'email');
      if (v.owner && v.permission?.length) throw new UsageError(UsageText.ownerTakesNoPermission);
      const { user, link } = await app.get(UsersService).createByOperator(accountId, { email: address, name: v.name, owner: v.owner, permissions: v.permission ?? [] });
      return userView(user, link);
    },
  }),

  defineCommand({
    name: 'user:list',
    summary: "an account's dashboard users (owner first)",
    options: { account: { type: 'string', value: 'ID', required: true, help: 'the account' } },
    examples: ['--account 1'],
    modules: [UsersModule],
    run: async (app, v) => {
      const accountId = positiveId(v.account, 'account');
      await app.get(AccountsService).get(accountId);
      const users = await app.get(UsersService).list(accountId);
      return {
        account_id: accountId,
        users: users.map((u) => ({ ...userView(u), name: u.name, password_set: u.hasPassword, created_at: u.createdAt.toISOString() })),
      };
    },
  }),

  defineCommand({
    name: 'user:reset-link',
    summary: 'a new single-use set-password link for a user (older links stop working), emailed and printed',
    description:
      'An invitation link (24 h) while the user has never set a password, else a password reset link (1 h). Printed so an operator can pass it on when mail does not arrive (without SMTP_URL the logged email hides the link). Recorded in the audit log.',
    options: { email: { type: 'string', value: 'EMAIL', required: true, help: 'the user' } },
    examples: ['--email owner@example.com.au'],
    modules: [UsersModule],
    run: async (app, v) => {
      const { user, link, purpose } = await app.get(UsersService).issueLinkByOperator(emailFlag(v.email, 'email'));
      return { ...userView(user, link), link_kind: purpose, valid_minutes: LINK_LIFETIME_MS[purpose] / 60_000 };
    },
  }),

  defineCommand({
    name: 'user:reset-2fa',
    summary: "turns off a user's two-factor sign-in (lost phone and recovery codes); they sign in with their password and set it up again",
    description: 'Remembered devices stop working too. Recorded in the audit log.',
    options: { email: { type: 'string', value: 'EMAIL', required: true, help: 'the user' } },
    examples: ['--email owner@example.com.au'],
    modules: [UsersModule],
    run: async (app, v) => {
      const { email, accountId, wasOn } = await app.get(TwoFactorService).resetByOperator(emailFlag(v.email, 'email'));
      return { email, account_id: accountId, two_factor: 'off', was_on: wasOn };
    },
  }),
];
