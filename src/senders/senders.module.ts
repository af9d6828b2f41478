import { Module } from '@nestjs/common';
import { SendersRepository } from './senders.repository';
import { SendersService } from './senders.service';

/** The account's senders, low in the graph (accounts and messaging use it); their API is in sender-identity/. */
@Module({ providers: [SendersRepository, SendersService], exports: [SendersService] })
export class SendersModule {}
