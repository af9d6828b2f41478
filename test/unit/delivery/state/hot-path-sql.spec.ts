import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OLDEST_UNCLAIMED_DUE } from '../../../../src/delivery/state/backlog.repository';
import { CANCEL_UNCLAIMED, RECIPIENT_CANDIDATES, scheduledCandidates } from '../../../../src/delivery/state/cancels.repository';
import { BATCH_WAITING, FORGET_BATCH, HOLD_SEND, MOVE_WATERMARK, TAKE_RELEASED_BATCH } from '../../../../src/delivery/state/claims.repository';
import { RENEW_LEASE } from '../../../../src/delivery/state/leases.repository';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../../../src/delivery/state/message-status';
import { RECORD_OUTCOMES } from '../../../../src/delivery/state/outcomes.repository';
import { APPLY_LATE_RECEIPTS, APPLY_SIMULATED_RECEIPTS, RECORD_RECEIPTS } from '../../../../src/delivery/state/receipts.repository';
import { CLOSE_RECEIPT_WAITS } from '../../../../src/delivery/state/receipt-waits.repository';
import { RELEASE_STALE, SENDS_WITH_UNCLAIMED_DUE, STALE_BATCHES } from '../../../../src/delivery/state/sweep.repository';

/**
 * The hot-path statements of the claim protocol, each written out as a committed .sql file beside this
 * test, so a change to any of them shows in review as a diff of plain SQL. After changing a statement on
 * purpose: UPDATE_SQL_SNAPSHOTS=1 npx jest test/unit/delivery/state/hot-path-sql.spec.ts
 */
const STATEMENTS: Record<string, string> = {
  'claim-1-hold-send': HOLD_SEND,
  'claim-2-take-released-batch': TAKE_RELEASED_BATCH,
  'claim-3-released-batch-waiting': BATCH_WAITING,
  'claim-4-move-watermark': MOVE_WATERMARK,
  'claim-forget-batch': FORGET_BATCH,
  'lease-renew': RENEW_LEASE,
  'outcomes-record': RECORD_OUTCOMES,
  'receipts-record': RECORD_RECEIPTS,
  'receipts-apply-late': APPLY_LATE_RECEIPTS,
  'receipts-settle-simulated': APPLY_SIMULATED_RECEIPTS,
  'receipts-close-waits': CLOSE_RECEIPT_WAITS,
  'sweep-stale-batches': STALE_BATCHES,
  'sweep-release-stale': RELEASE_STALE,
  'sweep-sends-with-unclaimed-due': SENDS_WITH_UNCLAIMED_DUE,
  'backlog-oldest-unclaimed-due': OLDEST_UNCLAIMED_DUE,
  'cancel-1-recipient-candidates': RECIPIENT_CANDIDATES,
  'cancel-1-scheduled-candidates-by-send': scheduledCandidates('send_id'),
  'cancel-2-unclaimed': CANCEL_UNCLAIMED,
  'status-of-a-message': `SELECT ${MESSAGE_STATUS} AS status FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = $2`,
};

const DIR = join(__dirname, 'sql');

/** One statement per file: lines without trailing blanks, indented as written in the source. */
function rendered(text: string): string {
  return `${text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim()};\n`;
}

describe('the hot-path SQL of the claim protocol', () => {
  if (process.env.UPDATE_SQL_SNAPSHOTS === '1') {
    mkdirSync(DIR, { recursive: true });
    for (const file of readdirSync(DIR)) if (!(file.replace(/\.sql$/, '') in STATEMENTS)) unlinkSync(join(DIR, file));
    for (const [name, text] of Object.entries(STATEMENTS)) writeFileSync(join(DIR, `${name}.sql`), rendered(text));
  }

  it.each(Object.entries(STATEMENTS))('%s is as committed in sql/', (name, text) => {
    const file = join(DIR, `${name}.sql`);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : `(no file ${name}.sql)`).toBe(rendered(text));
  });

  it('has a committed file for each statement and none left over', () => {
    expect(readdirSync(DIR).sort()).toEqual(
      Object.keys(STATEMENTS)
        .map((name) => `${name}.sql`)
        .sort(),
    );
  });
});
