import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { HealthService } from './health.service';

class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: string;
  @ApiProperty({ enum: ['up'] })
  database: string;
  @ApiProperty({ enum: ['up'] })
  redis: string;
}

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Liveness and dependencies (no authentication)' })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({ status: 503, type: ErrorEnvelopeDto, description: 'PostgreSQL or Redis is down' })
  check() {
    return this.health.check();
  }
}
