import { Injectable } from '@nestjs/common';
import { GroupCommit } from '../../common/batching/group-commit';
import type { DeliveryReceipt } from './carriers/carrier';
import { DeliveryRecordsService } from './delivery-records.service';

/**
 * Stores carrier receipts with group commit: receipts arriving within a few milliseconds share one
 * transaction, and each is acknowledged to the SMSC (deliver_sm_resp) only once that transaction has
 * committed, so none is lost and a campaign's receipts do not cost one transaction each. Unacknowledged
 * receipts (a failed write) are redelivered by the SMSC.
 */
@Injectable()
export class ReceiptIntakeService {
  private readonly group: GroupCommit<DeliveryReceipt>;

  constructor(records: DeliveryRecordsService) {
    this.group = new GroupCommit((receipts) => records.recordReceipts(receipts), { maxItems: 500, maxWaitMs: 10 });
  }

  accept(receipt: DeliveryReceipt): Promise<void> {
    return this.group.add(receipt);
  }
}
