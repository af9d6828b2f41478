import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type DedicatedNumberStatus = 'available' | 'assigned';
/** How an assigned number came to its account: the one free number, or bought (12 months, the purchases issue). */
export type DedicatedNumberKind = 'free' | 'paid';

/** The inventory of dedicated numbers (loaded by `numbers:import`), each available or assigned to one account. */
@Entity({ name: 'dedicated_numbers' })
@Check('dedicated_numbers_number_check', "number ~ '^614[0-9]{8}$'")
@Check('dedicated_numbers_annual_price_cents_check', 'annual_price_cents >= 0')
@Check('dedicated_numbers_status_check', "status IN ('available', 'assigned')")
@Check('dedicated_numbers_kind_check', "kind IN ('free', 'paid')")
@Check(
  'dedicated_numbers_assignment_check',
  `(status = 'available' AND account_id IS NULL AND kind IS NULL AND assigned_at IS NULL)
          OR (status = 'assigned' AND account_id IS NOT NULL AND kind IS NOT NULL AND assigned_at IS NOT NULL)`,
)
// The next number to hand out: cheapest first.
@Index('dedicated_numbers_available_idx', ['annualPriceCents', 'number'], { where: "status = 'available'" })
@Index('dedicated_numbers_account_idx', ['accountId'], { where: 'account_id IS NOT NULL' })
export class DedicatedNumber {
  /** Normalised mobile, 61… */
  @PrimaryColumn({ name: 'number', type: 'text' })
  number: string;

  /** Price for 12 months, in cents, excluding GST. */
  @Column({ name: 'annual_price_cents', type: 'integer' })
  annualPriceCents: number;

  @Column({ name: 'status', type: 'text', default: 'available' })
  status: DedicatedNumberStatus;

  @ForeignKey('Account', { name: 'dedicated_numbers_account_id_fkey' })
  @Column({ name: 'account_id', type: 'integer', nullable: true })
  accountId: number | null;

  @Column({ name: 'kind', type: 'text', nullable: true })
  kind: DedicatedNumberKind | null;

  @Column({ name: 'assigned_at', type: 'timestamptz', nullable: true })
  assignedAt: Date | null;

  @Column({ name: 'imported_at', type: 'timestamptz', default: () => 'now()' })
  importedAt: Date;
}
