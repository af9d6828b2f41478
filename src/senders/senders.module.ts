import { Module } from '@nestjs/common';
import { SendersController } from './senders.controller';
import { SendersRepository } from './senders.repository';
import { SendersService } from './senders.service';

@Module({ controllers: [SendersController], providers: [SendersRepository, SendersService], exports: [SendersService] })
export class SendersModule {}
