import { Module } from '@nestjs/common';
import { CancelsRepository } from './cancels.repository';
import { UnclaimedCancellation } from './unclaimed-cancellation.service';

/** The claim protocol's side of the API's writes (cancels and opt-outs take only what no dispatcher holds). */
@Module({ providers: [CancelsRepository, UnclaimedCancellation], exports: [UnclaimedCancellation] })
export class DeliveryStateModule {}
