import { Injectable, OnModuleInit } from '@nestjs/common';
import { InboundService } from '../inbound/inbound.service';
import { CarriersService } from './carriers.service';
import { ReceiptIntakeService } from './receipt-intake.service';

/** Routes what the live carrier receives: receipts to the receipt intake, mobile-originated messages to inbound. */
@Injectable()
export class CarrierEventsService implements OnModuleInit {
  constructor(
    private readonly carriers: CarriersService,
    private readonly receipts: ReceiptIntakeService,
    private readonly inbound: InboundService,
  ) {}

  onModuleInit(): void {
    this.carriers.live.onReceipt((receipt) => this.receipts.accept(receipt));
    this.carriers.live.onInbound(async (sms) => {
      await this.inbound.receive({ from: sms.from, to: sms.to, text: sms.text, receivedAt: sms.receivedAt });
    });
  }
}
