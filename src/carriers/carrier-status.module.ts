import { Module } from '@nestjs/common';
import { RedisModule } from '../common/redis/redis.module';
import { CarrierStatusStore } from './carrier-status-store';

/** Where workers publish each carrier's state and carrier:status reads it. */
@Module({ imports: [RedisModule], providers: [CarrierStatusStore], exports: [CarrierStatusStore] })
export class CarrierStatusModule {}
