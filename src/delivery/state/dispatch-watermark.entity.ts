import { Column } from 'typeorm';

/**
 * A send's place in its own dispatch order, embedded in `sends` (messaging's Send entity): how far claims
 * have taken its messages, and where its messages end. The claim protocol reads and moves it
 * (dispatch-order.ts, claims.repository.ts); nothing else does.
 */
export class DispatchWatermark {
  /**
   * The last of the send's messages, in (dispatch_at, seq) order, that a claim has taken (or walked past,
   * cancelled). Messages after it are unclaimed; a claim moves it under the send row's lock, and a cancel
   * reads it under the same lock.
   */
  @Column({ name: 'claimed_through_at', type: 'timestamptz', default: () => "'-infinity'" })
  claimedThroughAt: Date;

  @Column({ name: 'claimed_through_seq', type: 'bigint', default: 0 })
  claimedThroughSeq: number;

  /** The send's last message in dispatch order (null: no messages); set when its messages are stored. */
  @Column({ name: 'last_at', type: 'timestamptz', nullable: true })
  lastAt: Date | null;

  @Column({ name: 'last_seq', type: 'bigint', nullable: true })
  lastSeq: number | null;
}
