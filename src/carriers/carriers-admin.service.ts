import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { AppConfig, ConfigError } from '../config/app-config';
import { isUniqueViolation } from '../database/pg-errors';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { ENV_CARRIER_ID, ENV_CARRIER_NAME } from './carrier-ids';
import { carriersNotOpened, keyMismatch, oldKeyMismatch, resealUnder } from './carrier-keys';
import { CarrierSecret } from './carrier-secret';
import { CarrierSettingsError } from './carrier-settings';
import { CarrierFields, CarriersRepository, StoredCarrier } from './carriers.repository';
import type { SenderKindRule } from './route.entity';
import type { RouteRule } from './route-table';

export type CarrierInput = Omit<CarrierFields, 'passwordSealed' | 'enabled'> & { enabled?: boolean };

/** A carrier as the operator sees it: the password only as `set`. */
export interface CarrierView {
  id: number;
  name: string;
  host: string;
  port: number;
  tls: boolean;
  system_id: string;
  password: 'set';
  binds: number;
  window: number;
  tps_per_bind: number;
  alpha_source: string;
  numeric_source: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface NamedMember {
  carrier: string;
  weight: number;
  priority: number;
}

export function carrierView(c: StoredCarrier): CarrierView {
  return {
    id: c.id,
    name: c.name,
    host: c.host,
    port: c.port,
    tls: c.tls,
    system_id: c.systemId,
    password: 'set',
    binds: c.binds,
    window: c.window,
    tps_per_bind: c.tpsPerBind,
    alpha_source: `${c.alphaTon}/${c.alphaNpi}`,
    numeric_source: `${c.numericTon}/${c.numericNpi}`,
    enabled: c.enabled,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** The operator's carrier and route changes (CLI). Every write bumps the settings version (a trigger): workers reload. */
@Injectable()
export class CarriersAdminService {
  constructor(
    private readonly carriers: CarriersRepository,
    private readonly uow: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  /** The password is sealed before it reaches a query; without CARRIER_SECRET_KEY nothing is stored. */
  private secret(): CarrierSecret {
    if (!this.config.carrierSecretKey) {
      throw new ConfigError('CARRIER_SECRET_KEY is not set: a carrier password is stored only sealed with it (32 random bytes, e.g. openssl rand -base64 32)');
    }
    return CarrierSecret.fromKeyText(this.config.carrierSecretKey);
  }

  async list(): Promise<CarrierView[]> {
    return (await this.carriers.list()).map(carrierView);
  }

  async add(input: CarrierInput, password: string): Promise<CarrierView> {
    const secret = this.secret();
    const passwordSealed = secret.seal(password);
    try {
      return carrierView(
        await this.uow.run(async (tx) => {
          await this.checkKeyOpensOthers(secret, null, tx);
          return this.carriers.insert({ ...input, enabled: input.enabled ?? true, passwordSealed }, tx);
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw failure('carrierNameTaken', input.name);
      throw err;
    }
  }

  async update(name: string, changes: Partial<CarrierInput>, password: string | undefined): Promise<CarrierView> {
    const secret = password === undefined ? undefined : this.secret();
    const passwordSealed = password === undefined ? undefined : secret?.seal(password);
    const carrier = await this.named(name);
    try {
      const updated = await this.uow.run(async (tx) => {
        if (secret) await this.checkKeyOpensOthers(secret, carrier.id, tx);
        return this.carriers.update(carrier.id, { ...changes, passwordSealed }, tx);
      });
      if (!updated) throw failure('carrierNotFound', name);
      return carrierView(updated);
    } catch (err) {
      if (isUniqueViolation(err)) throw failure('carrierNameTaken', changes.name ?? name);
      throw err;
    }
  }

  async setEnabled(name: string, enabled: boolean): Promise<CarrierView> {
    return this.update(name, { enabled }, undefined);
  }

  /**
   * Key rotation: every stored password opened with the old key and resealed under CARRIER_SECRET_KEY in
   * one transaction (under the settings lock), or nothing written when the old key does not open one.
   * The rows' updated_at and the settings version move, so workers reload them.
   */
  async rekey(oldKeyText: string): Promise<{ resealed: number }> {
    const next = this.secret();
    const old = CarrierSecret.fromKeyText(oldKeyText);
    return this.uow.run(async (tx) => {
      await this.carriers.lockSettings(tx);
      const stored = await this.carriers.list(tx);
      const { refused, resealed } = resealUnder(old, next, stored);
      if (refused.length > 0) throw new ConfigError(oldKeyMismatch(refused, carriersNotOpened(next, stored).length === 0));
      return { resealed: await this.carriers.resealPasswords(resealed, tx) };
    });
  }

  /** Refused while a route names the carrier: its traffic would silently move elsewhere. */
  async remove(name: string): Promise<{ id: number; name: string; removed: true }> {
    const carrier = await this.named(name);
    await this.uow.run(async (tx) => {
      await this.carriers.lockSettings(tx);
      const routes = await this.carriers.routesNaming(carrier.id, tx);
      if (routes.length > 0) throw failure('carrierRouted', name, routes.join(', '));
      await this.carriers.remove(carrier.id, tx);
    });
    return { id: carrier.id, name, removed: true };
  }

  async addRoute(
    rule: { position: number | null; toFrom: string | null; toThrough: string | null; senderKind: SenderKindRule; accountId: number | null },
    members: NamedMember[],
  ): Promise<number> {
    const ids = await this.idsByName();
    const seen = new Set<number>();
    const resolved = members.map((m) => {
      const carrierId = ids.get(m.carrier);
      if (carrierId === undefined) throw failure('routeCarrierNotFound', m.carrier);
      if (seen.has(carrierId)) throw new CarrierSettingsError(`carrier ${m.carrier} is named twice`);
      seen.add(carrierId);
      return { carrierId, weight: m.weight, priority: m.priority };
    });
    return this.uow.run(async (tx) => {
      await this.carriers.lockSettings(tx);
      return this.carriers.insertRoute(rule.position, rule, resolved, tx);
    });
  }

  async removeRoute(id: number): Promise<boolean> {
    return this.uow.run(async (tx) => {
      await this.carriers.lockSettings(tx);
      return this.carriers.removeRoute(id, tx);
    });
  }

  async listRoutes(): Promise<RouteRule[]> {
    return this.carriers.listRoutes();
  }

  /** Carrier names by id, with the environment's carrier (env) whether or not SMPP_* is set here. */
  async namesById(): Promise<Map<number, string>> {
    const names = new Map<number, string>([[ENV_CARRIER_ID, ENV_CARRIER_NAME]]);
    for (const c of await this.carriers.list()) names.set(c.id, c.name);
    return names;
  }

  async stored(): Promise<StoredCarrier[]> {
    return this.carriers.list();
  }

  /**
   * A password sealed under a key the workers do not hold stops its carrier (they cannot open it), so one
   * is stored only when this key opens every other stored password: then it is the workers' key. Under the
   * settings lock, so a carrier:rekey cannot reseal the others in between. No other password: any key.
   */
  private async checkKeyOpensOthers(secret: CarrierSecret, exceptId: number | null, tx: Tx): Promise<void> {
    await this.carriers.lockSettings(tx);
    const refused = carriersNotOpened(secret, await this.carriers.list(tx), exceptId);
    if (refused.length > 0) throw new ConfigError(keyMismatch(refused));
  }

  private async idsByName(): Promise<Map<string, number>> {
    return new Map([...(await this.namesById())].map(([id, name]) => [name, id]));
  }

  private async named(name: string): Promise<StoredCarrier> {
    const carrier = await this.carriers.findByName(name);
    if (!carrier) throw failure('carrierNotFound', name);
    return carrier;
  }
}
