import { Module } from '@nestjs/common';
import { RedisModule } from '../common/redis/redis.module';
import { LinkClicksController } from './link-clicks.controller';
import { LinkClicksService } from './link-clicks.service';
import { LinkRetentionRepository } from './link-retention.repository';
import { LinkRetentionService } from './link-retention.service';
import { LinkStore } from './link-store.service';
import { LinksRepository } from './links.repository';

/** Short links and per-recipient opt-out links: stored with their messages, followed, clicks reported. */
@Module({
  imports: [RedisModule],
  // The short link redirect is a bare Fastify route (bootstrap/short-link-route.ts) on LinkClicksService.
  controllers: [LinkClicksController],
  providers: [LinksRepository, LinkStore, LinkClicksService, LinkRetentionRepository, LinkRetentionService],
  exports: [LinkStore, LinkClicksService, LinkRetentionService],
})
export class LinksModule {}
