import { Global, Module } from '@nestjs/common';
import { AddressCounter } from './address-counter';
import { RedisService } from './redis.service';

@Global()
@Module({ providers: [RedisService, AddressCounter], exports: [RedisService, AddressCounter] })
export class RedisModule {}
