import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { HealthDownDescription, StatusDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { toLivenessReport } from './health.mapper';
import { HealthDto, LivenessDto } from './dto/health.dto';
import { HealthService } from './health.service';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get()
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Readiness: dependencies, backlog and carrier',
    description:
      '503 when PostgreSQL or Redis is down (the service cannot work). Otherwise 200, `ok` or `degraded` with the problems named (dispatch not draining, no SMPP bind up): the API still accepts messages. No authentication.',
  })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({ status: 405, type: ErrorEnvelopeDto, description: StatusDescription[405] })
  @ApiResponse({ status: 503, type: ErrorEnvelopeDto, description: HealthDownDescription })
  check() {
    return this.health.check();
  }

  @Public()
  @Get('live')
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'Liveness: the process answers',
    description: 'Checks nothing else, so a dependency outage does not get the process restarted. No authentication.',
  })
  @ApiOkResponse({ type: LivenessDto })
  @ApiResponse({ status: 405, type: ErrorEnvelopeDto, description: StatusDescription[405] })
  live() {
    return toLivenessReport();
  }
}
