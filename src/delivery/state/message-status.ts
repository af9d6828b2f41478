import { inBatch, unclaimed } from './dispatch-order';

/**
 * Message `m` lies in a batch a dispatcher took and the sweeper took back from it (it died): waiting to be
 * claimed again, so as good as unclaimed (dispatch_batches_released_idx: almost always empty).
 */
export const IN_RELEASED_BATCH = `EXISTS (SELECT 1 FROM dispatch_batches rb WHERE rb.released_at IS NOT NULL AND ${inBatch('rb')})`;

/**
 * A message's status from its parts `p` (an aggregate over one message's parts): failed when any part
 * failed; delivered when every part is recorded, its first part was delivered and each other part was
 * delivered or its wait for a receipt closed without one (`unconfirmed`); else sent. The first part
 * counts for the rest because carriers that report a concatenated message once report it on its first
 * part; a carrier that reports every part settles the message with its last receipt, and one that reports
 * none leaves it sent once every wait has closed (message-part.entity.ts, receipt-waits.service.ts).
 */
export const PARTS_STATUS = `CASE WHEN bool_or(p.status = 'failed') THEN 'failed'
         WHEN count(*) = max(p.total_parts) AND bool_and(p.status IN ('delivered', 'unconfirmed')) AND bool_or(p.part_number = 1 AND p.status = 'delivered') THEN 'delivered'
         ELSE 'sent' END`;

/**
 * A message's status, in SQL, for a message row `m` joined `WITH_PART_STATUS`. The row holds only the
 * statuses before dispatch (pending, scheduled, cancelled); after that the status is read:
 * - once a dispatcher has claimed it (it lies at or before its send's dispatch watermark, and not in a
 *   batch taken back from a dead dispatcher), it is sent: it is with the carrier, or about to be, and can
 *   no longer be cancelled;
 * - once one of its parts is recorded (a part is written when the carrier answers its submission, and
 *   again by its receipt), its parts say (PARTS_STATUS): failed when any part failed, delivered once
 *   every part is (or its first part is and the others' receipt waits closed), else sent.
 * The send and the parts are read by key.
 */
export const WITH_PART_STATUS = `LEFT JOIN sends message_send ON message_send.id = m.send_id
  LEFT JOIN LATERAL (
    SELECT ${PARTS_STATUS} AS status
      FROM message_parts p WHERE p.message_id = m.id HAVING count(*) > 0
  ) part_status ON true`;

export const MESSAGE_STATUS = `coalesce(part_status.status,
  CASE WHEN m.status IN ('pending', 'scheduled') AND NOT ${unclaimed('message_send')} AND NOT ${IN_RELEASED_BATCH} THEN 'sent'
       ELSE m.status END)`;
