import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A named SMSC connection (one SMPP account at one carrier). Its id is the carrier's identity in parts,
 * receipts and inbound messages (carrier 0 is the SMPP_* environment shortcut, -1 the simulator).
 */
@Entity({ name: 'carriers' })
@Check('carriers_name_check', "name ~ '^[a-z0-9][a-z0-9_-]{0,31}$' AND name NOT IN ('env', 'simulator')")
@Check('carriers_port_check', 'port BETWEEN 1 AND 65535')
@Check('carriers_binds_check', 'binds BETWEEN 1 AND 64')
@Check('carriers_submit_window_check', 'submit_window BETWEEN 1 AND 1000')
@Check('carriers_tps_per_bind_check', 'tps_per_bind BETWEEN 0 AND 100000')
@Check('carriers_addressing_check', 'alpha_ton BETWEEN 0 AND 6 AND numeric_ton BETWEEN 0 AND 6 AND alpha_npi BETWEEN 0 AND 18 AND numeric_npi BETWEEN 0 AND 18')
@Index('carriers_name_key', ['name'], { unique: true })
export class CarrierRow {
  @PrimaryGeneratedColumn('identity', { name: 'id', type: 'smallint', generatedIdentity: 'ALWAYS' })
  id: number;

  @Column({ name: 'name', type: 'text' })
  name: string;

  @Column({ name: 'host', type: 'text' })
  host: string;

  @Column({ name: 'port', type: 'integer' })
  port: number;

  @Column({ name: 'tls', type: 'boolean', default: false })
  tls: boolean;

  @Column({ name: 'system_id', type: 'text' })
  systemId: string;

  /** AES-256-GCM under CARRIER_SECRET_KEY (iv | tag | ciphertext): a database dump alone does not reveal it. */
  @Column({ name: 'password_sealed', type: 'bytea' })
  passwordSealed: Buffer;

  @Column({ name: 'binds', type: 'smallint' })
  binds: number;

  /** Unanswered submit_sm per bind (`window` is an SQL keyword). */
  @Column({ name: 'submit_window', type: 'smallint' })
  submitWindow: number;

  /** 0: uncapped. */
  @Column({ name: 'tps_per_bind', type: 'integer' })
  tpsPerBind: number;

  /** Source TON/NPI of an alphanumeric sender (SMPP 3.4 §5.2.5-6; usually 5/0). */
  @Column({ name: 'alpha_ton', type: 'smallint', default: 5 })
  alphaTon: number;

  @Column({ name: 'alpha_npi', type: 'smallint', default: 0 })
  alphaNpi: number;

  /** Source TON/NPI of a numeric sender (usually 1/1, international ISDN). */
  @Column({ name: 'numeric_ton', type: 'smallint', default: 1 })
  numericTon: number;

  @Column({ name: 'numeric_npi', type: 'smallint', default: 1 })
  numericNpi: number;

  @Column({ name: 'enabled', type: 'boolean', default: true })
  enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
