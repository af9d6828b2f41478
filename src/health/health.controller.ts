import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { HealthDownDescription } from '../common/errors/error-catalogue';
import { ErrorEnvelopeDto } from '../common/http/api-errors.decorator';
import { toLivenessReport } from './health.mapper';
import { HealthService } from './health.service';

class QueueDepthDto {
  @ApiProperty() waiting: number;
  @ApiProperty() active: number;
  @ApiProperty() delayed: number;
  @ApiProperty() failed: number;
}

class DispatchHealthDto {
  @ApiProperty({ type: QueueDepthDto }) queue: QueueDepthDto;
  @ApiProperty({ description: 'Age of the oldest due message no dispatcher has taken' }) oldest_due_seconds: number;
}

class CarrierHealthDto {
  @ApiProperty({ enum: ['smpp', 'simulator'] }) kind: string;
  @ApiProperty() binds_configured: number;
  @ApiProperty() binds_up: number;
  @ApiProperty() in_flight: number;
}

class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status: string;
}

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: string;
  @ApiProperty({ enum: ['up'] }) database: string;
  @ApiProperty({ enum: ['up'] }) redis: string;
  @ApiProperty({ type: DispatchHealthDto }) dispatch: DispatchHealthDto;
  @ApiPropertyOptional({ type: CarrierHealthDto, description: 'Present where the delivery workers run in this process' }) carrier?: CarrierHealthDto;
  @ApiProperty({ type: [String] }) problems: string[];
}

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Dependencies, dispatch backlog and carrier binds (no authentication)' })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({ status: 503, type: ErrorEnvelopeDto, description: HealthDownDescription })
  check() {
    return this.health.check();
  }

  @Public()
  @Get('live')
  @ApiOperation({ summary: 'The process is up (checks nothing else; no authentication)' })
  @ApiOkResponse({ type: LivenessDto })
  live() {
    return toLivenessReport();
  }
}
