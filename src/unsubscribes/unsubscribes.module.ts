import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { ListsModule } from '../lists/lists.module';
import { UnsubscribesController } from './unsubscribes.controller';
import { UnsubscribesRepository } from './unsubscribes.repository';
import { UnsubscribesService } from './unsubscribes.service';

@Module({ imports: [ListsModule, ConsentModule], controllers: [UnsubscribesController], providers: [UnsubscribesRepository, UnsubscribesService], exports: [UnsubscribesService] })
export class UnsubscribesModule {}
