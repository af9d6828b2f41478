import { Injectable, OnModuleInit } from '@nestjs/common';
import { CarriersService } from './delivery/worker/carriers.service';
import { ReceiptIntakeService } from './delivery/worker/receipt-intake.service';
import { InboundService } from './inbound/inbound.service';

/**
 * Routes what the live carrier receives: receipts to the receipt intake, mobile-originated messages to
 * inbound. It lives in the composition root so the worker (dispatch) never imports a domain that
 * imports it back.
 */
@Injectable()
export class CarrierEventsRouter implements OnModuleInit {
  constructor(
    private readonly carriers: CarriersService,
    private readonly receipts: ReceiptIntakeService,
    private readonly inbound: InboundService,
  ) {}

  onModuleInit(): void {
    this.carriers.onReceipt((receipt) => this.receipts.accept(receipt));
    this.carriers.onInbound(async (sms) => {
      await this.inbound.receive({ from: sms.from, to: sms.to, text: sms.text, receivedAt: sms.receivedAt });
    });
  }
}
