import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { RedisService } from '../common/redis/redis.service';
import { UnitOfWork } from '../database/unit-of-work';
import { CARRIER_STATUS, type CarrierStatusReader } from '../delivery/status/carrier-state';
import { DispatchStatusService } from '../delivery/status/dispatch-status.service';
import { HealthReport, toHealthReport } from './health.mapper';

@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly redis: RedisService,
    private readonly dispatch: DispatchStatusService,
    @Optional() @Inject(CARRIER_STATUS) private readonly carrier?: CarrierStatusReader,
  ) {}

  /**
   * 503 when PostgreSQL or Redis is down (the API cannot work). A stalled queue or a carrier with no
   * bind up leaves the API usable (messages queue), so it answers 200 with status "degraded" and says why.
   */
  async check(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([this.uow.ping(), this.redis.ping()]);
    if (!database || !redis) {
      this.logger.warn({ msg: 'health check failed', database: database ? 'up' : 'down', redis: redis ? 'up' : 'down' });
      throw failure('serviceUnavailable');
    }
    const dispatch = await this.dispatch.snapshot();
    const carrier = this.carrier?.status();
    const problems: string[] = [];
    if (this.dispatch.isStalled(dispatch.oldestDueSeconds)) problems.push(`dispatch is not draining: oldest due message waiting ${dispatch.oldestDueSeconds}s`);
    if (carrier && carrier.kind === 'smpp' && carrier.carriers.length === 0) problems.push('no carrier: live messages wait until one is added (SMPP_* or carrier:add)');
    else if (carrier && carrier.bindsConfigured > 0 && carrier.bindsUp === 0) problems.push('no SMPP bind is up');
    // With one carrier the line above says it; with several, each one down is named (its traffic has moved or waits).
    else if (carrier && carrier.carriers.length > 1)
      for (const c of carrier.carriers) if (c.state === 'down') problems.push(`carrier ${c.name} is down (${c.reason ?? 'hold-down'})`);
    if (carrier && carrier.waiting.messages > 0) problems.push(`${carrier.waiting.messages} messages waiting for a carrier: every carrier of their route is down`);
    if (problems.length) this.logger.warn({ msg: 'health degraded', problems });
    return toHealthReport(dispatch, carrier, problems);
  }
}
