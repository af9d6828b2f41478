import { DEFAULT_TIME_ZONE } from '../common/time/australian-time-zones';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'accounts' })
@Check('accounts_credit_balance_check', 'credit_balance >= 0')
@Check('accounts_part_rate_check', 'part_rate > 0')
@Check(
  'accounts_time_zone_check',
  "time_zone = ANY (ARRAY['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Lindeman', 'Australia/Hobart', 'Australia/Adelaide', 'Australia/Broken_Hill', 'Australia/Darwin', 'Australia/Perth', 'Australia/Eucla', 'Australia/Lord_Howe']::text[])",
)
@Index('accounts_optout_code_key', ['optoutCode'], { unique: true })
@Index('accounts_one_system_key', ['isSystem'], { unique: true, where: 'is_system' })
export class Account {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'name', type: 'text' })
  name: string;

  @Column({ name: 'is_test', type: 'boolean', default: false })
  isTest: boolean;

  @Column({ name: 'allow_duplicate_contacts', type: 'boolean', default: false })
  allowDuplicateContacts: boolean;

  /** Credits in hundredths; the ledger's sum for the account always equals it. */
  @Column({ name: 'credit_balance', type: 'bigint', default: 0 })
  creditBalance: number;

  /** Price of one message part, in hundredths of a credit (100 = 1 credit). */
  @Column({ name: 'part_rate', type: 'integer', default: 100 })
  partRate: number;

  /** Code of the account's opt-out link, `{SHORT_LINK_BASE}/o/{code}`. */
  @Column({ name: 'optout_code', type: 'text' })
  optoutCode: string;

  /** Webhook URLs ('' = off) and signing secret, shared by all the account's API keys. */
  @Column({ name: 'webhook_inbound_url', type: 'text', default: '' })
  webhookInboundUrl: string;

  @Column({ name: 'webhook_status_url', type: 'text', default: '' })
  webhookStatusUrl: string;

  @Column({ name: 'webhook_secret', type: 'text', nullable: true, select: false })
  webhookSecret: string | null;

  @Column({ name: 'billing_email', type: 'text', nullable: true })
  billingEmail: string | null;

  /** The platform's own account (at most one): sends the service's own texts, such as own-mobile confirmations. */
  @Column({ name: 'is_system', type: 'boolean', default: false })
  isSystem: boolean;

  /** Local time of every page and export (Australian IANA zones only); the API keeps UTC. */
  @Column({ name: 'time_zone', type: 'text', default: DEFAULT_TIME_ZONE })
  timeZone: string;

  /** Auto-recharge's threshold in hundredths (null: off); kept here so a debit sees it in its own UPDATE. */
  @Column({ name: 'recharge_below', type: 'bigint', nullable: true })
  rechargeBelow: number | null;

  /** The low-balance warning's threshold in hundredths (null: off). */
  @Column({ name: 'warn_below', type: 'bigint', nullable: true })
  warnBelow: number | null;

  /** The owner's switch: every user of the account must sign in with two factors (set up on their next page). */
  @Column({ name: 'require_two_factor', type: 'boolean', default: false })
  requireTwoFactor: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
