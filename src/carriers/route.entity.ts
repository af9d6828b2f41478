import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const SENDER_KINDS = ['alphanumeric', 'numeric', 'any'] as const;
export type SenderKindRule = (typeof SENDER_KINDS)[number];

/**
 * One routing rule, tried in ascending position (then id): destination digits from–through (compared on
 * their first length(to_from) digits; a prefix is a range of one), sender kind and account, each null/any
 * for all. Its carriers are its route_members.
 */
@Entity({ name: 'routes' })
@Check('routes_sender_kind_check', "sender_kind IN ('alphanumeric', 'numeric', 'any')")
@Check(
  'routes_range_check',
  "(to_from IS NULL AND to_through IS NULL) OR (to_from ~ '^[0-9]{1,15}$' AND to_through ~ '^[0-9]{1,15}$' AND length(to_from) = length(to_through) AND to_from <= to_through)",
)
export class RouteRow {
  @PrimaryGeneratedColumn('identity', { name: 'id', type: 'integer', generatedIdentity: 'ALWAYS' })
  id: number;

  @Column({ name: 'position', type: 'integer' })
  position: number;

  @Column({ name: 'to_from', type: 'text', nullable: true })
  toFrom: string | null;

  @Column({ name: 'to_through', type: 'text', nullable: true })
  toThrough: string | null;

  @Column({ name: 'sender_kind', type: 'text', default: 'any' })
  senderKind: SenderKindRule;

  @ForeignKey('Account', { name: 'routes_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer', nullable: true })
  accountId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** A carrier of a route: the lowest priority among carriers that are up share the load by weight. */
@Entity({ name: 'route_members' })
@Check('route_members_carrier_id_check', 'carrier_id >= 0')
@Check('route_members_weight_check', 'weight BETWEEN 1 AND 1000')
@Check('route_members_priority_check', 'priority BETWEEN 0 AND 100')
export class RouteMemberRow {
  @ForeignKey('RouteRow', { name: 'route_members_route_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'route_id', type: 'integer' })
  routeId: number;

  /** No foreign key: carrier 0 (the environment's) has no row; carrier:remove refuses while a route names it. */
  @PrimaryColumn({ name: 'carrier_id', type: 'smallint' })
  carrierId: number;

  @Column({ name: 'weight', type: 'smallint', default: 1 })
  weight: number;

  @Column({ name: 'priority', type: 'smallint', default: 0 })
  priority: number;
}

/** One row whose version a statement trigger on the three tables above bumps: workers poll it to reload. */
@Entity({ name: 'carrier_settings_version' })
@Check('carrier_settings_version_one_row', 'id')
export class CarrierSettingsVersion {
  @PrimaryColumn({ name: 'id', type: 'boolean', default: true })
  id: boolean;

  @Column({ name: 'version', type: 'bigint', default: 0 })
  version: string;
}
