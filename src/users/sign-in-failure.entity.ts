import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One failed sign-in, counted against its email, its client address and the pair of both (each stored as a digest). */
@Entity({ name: 'sign_in_failures' })
@Check('sign_in_failures_scope_check', "scope IN ('email', 'ip', 'pair')")
@Index('sign_in_failures_subject_idx', ['scope', 'subject', 'failedAt'])
export class SignInFailure {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @Column({ name: 'scope', type: 'text' })
  scope: 'email' | 'ip' | 'pair';

  @Column({ name: 'subject', type: 'bytea' })
  subject: Buffer;

  @Column({ name: 'failed_at', type: 'timestamptz' })
  failedAt: Date;
}
