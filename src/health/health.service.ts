import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { ErrorText } from '../common/errors/error-catalogue';
import { RedisService } from '../common/redis/redis.service';

@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisService,
  ) {}

  async check() {
    const [database, redis] = await Promise.all([this.databaseUp(), this.redis.ping()]);
    if (!database || !redis) {
      this.logger.warn({ msg: 'health check failed', database: database ? 'up' : 'down', redis: redis ? 'up' : 'down' });
      throw new DomainError('unavailable', ErrorText.serviceUnavailable);
    }
    return { status: 'ok', database: 'up', redis: 'up' };
  }

  private async databaseUp(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
