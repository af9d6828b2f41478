import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type UnsubscribeSource = 'api' | 'reply' | 'link';

@Entity({ name: 'unsubscribes' })
export class Unsubscribe {
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ name: 'number', type: 'text' })
  number: string;

  /** How the number opted out: by API, by replying STOP, or through the opt-out link. */
  @Column({ name: 'source', type: 'text' })
  source: UnsubscribeSource;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
