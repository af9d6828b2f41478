import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** The account's free dedicated number (once per account: the primary key) and the service address it was claimed for. */
@Entity({ name: 'free_number_claims' })
@Check('free_number_claims_state_check', "state IN ('NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT')")
@Check('free_number_claims_postcode_check', "postcode ~ '^[0-9]{4}$'")
@Index('free_number_claims_number_key', ['number'], { unique: true })
export class FreeNumberClaim {
  @ForeignKey('Account', { name: 'free_number_claims_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('DedicatedNumber', { name: 'free_number_claims_number_fkey' })
  @Column({ name: 'number', type: 'text' })
  number: string;

  @Column({ name: 'street', type: 'text' })
  street: string;

  @Column({ name: 'suburb', type: 'text', default: '' })
  suburb: string;

  @Column({ name: 'state', type: 'text' })
  state: string;

  @Column({ name: 'postcode', type: 'text' })
  postcode: string;

  /** The dashboard user who claimed it; null when an API key did (api_key_id says which). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @ForeignKey('ApiKey', { name: 'free_number_claims_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'claimed_at', type: 'timestamptz' })
  claimedAt: Date;
}
