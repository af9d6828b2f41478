import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class QueueDepthDto {
  @ApiProperty({ type: 'integer' }) waiting: number;
  @ApiProperty({ type: 'integer' }) active: number;
  @ApiProperty({ type: 'integer' }) delayed: number;
  @ApiProperty({ type: 'integer' }) failed: number;
}

class DispatchHealthDto {
  @ApiProperty({ type: QueueDepthDto }) queue: QueueDepthDto;
  @ApiProperty({ description: 'Age in seconds (one decimal) of the oldest due message no dispatcher has taken', type: 'number', example: 0.4 }) oldest_due_seconds: number;
}

class CarrierHealthDto {
  @ApiProperty({ enum: ['smpp', 'simulator'] }) kind: string;
  @ApiProperty({ type: 'integer' }) binds_configured: number;
  @ApiProperty({ type: 'integer' }) binds_up: number;
  @ApiProperty({ type: 'integer' }) in_flight: number;
}

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status: string;
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: string;
  @ApiProperty({ enum: ['up'] }) database: string;
  @ApiProperty({ enum: ['up'] }) redis: string;
  @ApiProperty({ type: DispatchHealthDto }) dispatch: DispatchHealthDto;
  @ApiPropertyOptional({ type: CarrierHealthDto, description: 'Present where the delivery workers run in this process' }) carrier?: CarrierHealthDto;
  @ApiProperty({ type: [String], description: 'Why the status is degraded; empty when ok', example: [] }) problems: string[];
}
