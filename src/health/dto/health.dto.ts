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

class OneCarrierHealthDto {
  @ApiProperty({ type: 'integer', description: '0 the SMPP_* carrier (env), 1 and up the carriers table' }) id: number;
  @ApiProperty({ example: 'env' }) name: string;
  @ApiProperty({
    enum: ['up', 'down', 'draining'],
    description: 'down: no bind up, or too many temporary errors, or its hold-down not served; draining: removed, disabled or updated, finishing its parts',
  })
  state: string;
  @ApiProperty({ type: 'string', nullable: true, enum: ['binds', 'errors'], description: 'Why it is down' }) reason: string | null;
  @ApiProperty({ type: 'integer' }) binds_configured: number;
  @ApiProperty({ type: 'integer' }) binds_up: number;
  @ApiProperty({ type: 'integer' }) in_flight: number;
}

class WaitingForCarrierDto {
  @ApiProperty({ type: 'integer' }) messages: number;
  @ApiProperty({ type: 'integer' }) parts: number;
}

class CarrierHealthDto {
  @ApiProperty({ enum: ['smpp', 'simulator'] }) kind: string;
  @ApiProperty({ type: 'integer', description: 'Sum over the carriers' }) binds_configured: number;
  @ApiProperty({ type: 'integer' }) binds_up: number;
  @ApiProperty({ type: 'integer' }) in_flight: number;
  @ApiProperty({ type: [OneCarrierHealthDto] }) carriers: OneCarrierHealthDto[];
  @ApiProperty({ type: WaitingForCarrierDto, description: 'Messages held in this process because every carrier of their route is down' }) waiting_for_carrier: WaitingForCarrierDto;
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
