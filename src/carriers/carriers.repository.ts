import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { SenderKindRule } from './route.entity';
import type { RouteRule } from './route-table';

/** A carriers row as stored (the password sealed). */
export interface StoredCarrier {
  id: number;
  name: string;
  host: string;
  port: number;
  tls: boolean;
  systemId: string;
  passwordSealed: Buffer;
  binds: number;
  window: number;
  tpsPerBind: number;
  alphaTon: number;
  alphaNpi: number;
  numericTon: number;
  numericNpi: number;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type CarrierFields = Omit<StoredCarrier, 'id' | 'createdAt' | 'updatedAt'>;

/** Everything a worker routes by, read in one snapshot with the version it belongs to. */
export interface CarrierSettingsSnapshot {
  version: string;
  carriers: StoredCarrier[];
  routes: RouteRule[];
}

const CARRIER_COLUMNS = `id, name, host, port, tls, system_id AS "systemId", password_sealed AS "passwordSealed", binds, submit_window AS "window",
  tps_per_bind AS "tpsPerBind", alpha_ton AS "alphaTon", alpha_npi AS "alphaNpi", numeric_ton AS "numericTon", numeric_npi AS "numericNpi",
  enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Column of each updatable field. */
const COLUMN_OF: Record<keyof CarrierFields, string> = {
  name: 'name',
  host: 'host',
  port: 'port',
  tls: 'tls',
  systemId: 'system_id',
  passwordSealed: 'password_sealed',
  binds: 'binds',
  window: 'submit_window',
  tpsPerBind: 'tps_per_bind',
  alphaTon: 'alpha_ton',
  alphaNpi: 'alpha_npi',
  numericTon: 'numeric_ton',
  numericNpi: 'numeric_npi',
  enabled: 'enabled',
};

/**
 * The carriers, routes and route_members tables. Operator writes are rare and small; the worker's reads
 * are one version row every few seconds and, when it moved, one snapshot.
 */
@Injectable()
export class CarriersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(tx?: Tx): Promise<StoredCarrier[]> {
    return (await sql<StoredCarrier>(tx ?? this.dataSource, `SELECT ${CARRIER_COLUMNS} FROM carriers ORDER BY id`)).rows;
  }

  async findByName(name: string, tx?: Tx): Promise<StoredCarrier | null> {
    return (await sql<StoredCarrier>(tx ?? this.dataSource, `SELECT ${CARRIER_COLUMNS} FROM carriers WHERE name = $1`, [name])).rows[0] ?? null;
  }

  async insert(fields: CarrierFields, tx: Tx): Promise<StoredCarrier> {
    const keys = Object.keys(COLUMN_OF) as Array<keyof CarrierFields>;
    const { rows } = await sql<StoredCarrier>(
      tx,
      `INSERT INTO carriers (${keys.map((k) => COLUMN_OF[k]).join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${CARRIER_COLUMNS}`,
      keys.map((k) => fields[k]),
    );
    return rows[0];
  }

  async update(id: number, changes: Partial<CarrierFields>, tx: Tx): Promise<StoredCarrier | null> {
    const keys = (Object.keys(changes) as Array<keyof CarrierFields>).filter((k) => changes[k] !== undefined);
    const sets = keys.map((k, i) => `${COLUMN_OF[k]} = $${i + 2}`);
    const { rows } = await sql<StoredCarrier>(tx, `UPDATE carriers SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${CARRIER_COLUMNS}`, [
      id,
      ...keys.map((k) => changes[k]),
    ]);
    return rows[0] ?? null;
  }

  /** Replaces stored passwords (carrier:rekey) in one statement; updated_at moves with them, as any change. */
  async resealPasswords(sealed: ReadonlyArray<{ id: number; passwordSealed: Buffer }>, tx: Tx): Promise<number> {
    if (sealed.length === 0) return 0;
    const { rowCount } = await sql(
      tx,
      `UPDATE carriers c SET password_sealed = v.sealed, updated_at = now()
         FROM unnest($1::smallint[], $2::bytea[]) AS v(id, sealed) WHERE c.id = v.id`,
      [sealed.map((s) => s.id), sealed.map((s) => s.passwordSealed)],
    );
    return rowCount;
  }

  async remove(id: number, tx: Tx): Promise<boolean> {
    return (await sql(tx, `DELETE FROM carriers WHERE id = $1`, [id])).rowCount > 0;
  }

  /** Ids of the routes that name a carrier (it may not be removed while any does). */
  async routesNaming(carrierId: number, tx: Tx): Promise<number[]> {
    const { rows } = await sql<{ routeId: number }>(tx, `SELECT route_id AS "routeId" FROM route_members WHERE carrier_id = $1 ORDER BY route_id`, [carrierId]);
    return rows.map((r) => r.routeId);
  }

  async listRoutes(tx?: Tx): Promise<RouteRule[]> {
    const db = tx ?? this.dataSource;
    const { rows } = await sql<Omit<RouteRule, 'members'> & { members: RouteRule['members'] | null }>(
      db,
      `SELECT r.id, r.position, r.to_from AS "toFrom", r.to_through AS "toThrough", r.sender_kind AS "senderKind", r.account_id AS "accountId",
              (SELECT json_agg(json_build_object('carrierId', m.carrier_id, 'weight', m.weight, 'priority', m.priority) ORDER BY m.priority, m.carrier_id)
                 FROM route_members m WHERE m.route_id = r.id) AS members
         FROM routes r ORDER BY r.position, r.id`,
    );
    return rows.map((r) => ({ ...r, members: r.members ?? [] }));
  }

  /** Serialises route edits (positions are renumbered under it): the version row is the one lock. */
  async lockSettings(tx: Tx): Promise<void> {
    await sql(tx, `SELECT version FROM carrier_settings_version FOR UPDATE`);
  }

  /**
   * Inserts a rule at a 1-based position (after the last when null or past the end), moving the rules
   * from there down one, with its members.
   */
  async insertRoute(
    position: number | null,
    rule: { toFrom: string | null; toThrough: string | null; senderKind: SenderKindRule; accountId: number | null },
    members: RouteRule['members'],
    tx: Tx,
  ): Promise<number> {
    const { rows: last } = await sql<{ max: number }>(tx, `SELECT coalesce(max(position), 0)::int AS max FROM routes`);
    const at = position === null || position > last[0].max ? last[0].max + 1 : position;
    await sql(tx, `UPDATE routes SET position = position + 1 WHERE position >= $1`, [at]);
    const { rows } = await sql<{ id: number }>(tx, `INSERT INTO routes (position, to_from, to_through, sender_kind, account_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [
      at,
      rule.toFrom,
      rule.toThrough,
      rule.senderKind,
      rule.accountId,
    ]);
    const id = rows[0].id;
    await sql(
      tx,
      `INSERT INTO route_members (route_id, carrier_id, weight, priority)
       SELECT $1, * FROM unnest($2::smallint[], $3::smallint[], $4::smallint[])`,
      [id, members.map((m) => m.carrierId), members.map((m) => m.weight), members.map((m) => m.priority)],
    );
    return id;
  }

  /** Removes a rule and closes the gap in positions. */
  async removeRoute(id: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql<{ position: number }>(tx, `DELETE FROM routes WHERE id = $1 RETURNING position`, [id]);
    if (rows.length === 0) return false;
    await sql(tx, `UPDATE routes SET position = position - 1 WHERE position > $1`, [rows[0].position]);
    return true;
  }

  /** The version row alone: what a worker reads every CARRIER_RELOAD_MS. */
  async version(): Promise<string> {
    return (await sql<{ version: string }>(this.dataSource, `SELECT version::text AS version FROM carrier_settings_version`)).rows[0]?.version ?? '0';
  }

  /** Carriers, routes and the version they belong to, from one consistent snapshot. */
  async snapshot(): Promise<CarrierSettingsSnapshot> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const tx = new Tx(manager);
      const version = (await sql<{ version: string }>(manager, `SELECT version::text AS version FROM carrier_settings_version`)).rows[0]?.version ?? '0';
      return { version, carriers: await this.list(tx), routes: await this.listRoutes(tx) };
    });
  }
}
