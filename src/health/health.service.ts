import { Injectable, Logger, Optional } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { ErrorText } from '../common/errors/error-catalogue';
import { RedisService } from '../common/redis/redis.service';
import { CarriersService } from '../dispatch/carriers.service';
import { DISPATCH_STALLED_AFTER_SECONDS, DispatchStatusService } from '../dispatch/dispatch-status.service';
import { UnitOfWork } from '../database/unit-of-work';


@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly redis: RedisService,
    private readonly dispatch: DispatchStatusService,
    @Optional() private readonly carriers?: CarriersService,
  ) {}

  /**
   * 503 when PostgreSQL or Redis is down (the API cannot work). A stalled queue or a carrier with no
   * bind up leaves the API usable (messages queue), so it answers 200 with status "degraded" and says why.
   */
  async check() {
    const [database, redis] = await Promise.all([this.uow.ping(), this.redis.ping()]);
    if (!database || !redis) {
      this.logger.warn({ msg: 'health check failed', database: database ? 'up' : 'down', redis: redis ? 'up' : 'down' });
      throw new DomainError('unavailable', ErrorText.serviceUnavailable);
    }
    const dispatch = await this.dispatch.snapshot();
    const carrier = this.carriers?.live.state();
    const problems: string[] = [];
    if (dispatch.oldest_due_seconds > DISPATCH_STALLED_AFTER_SECONDS) problems.push(`dispatch is not draining: oldest due message waiting ${dispatch.oldest_due_seconds}s`);
    if (carrier && carrier.bindsConfigured > 0 && carrier.bindsUp === 0) problems.push('no SMPP bind is up');
    if (problems.length) this.logger.warn({ msg: 'health degraded', problems });
    return {
      status: problems.length ? 'degraded' : 'ok',
      database: 'up',
      redis: 'up',
      dispatch,
      ...(carrier ? { carrier: { kind: carrier.kind, binds_configured: carrier.bindsConfigured, binds_up: carrier.bindsUp, in_flight: carrier.inFlight } } : {}),
      problems,
    };
  }
}
