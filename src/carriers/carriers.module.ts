import { Module } from '@nestjs/common';
import { CarriersAdminService } from './carriers-admin.service';
import { CarriersRepository } from './carriers.repository';
import { CarrierSettingsSource } from './carrier-settings-source';

/** Carriers and routes as data: the operator's changes (CLI) and the snapshot workers route by. */
@Module({
  providers: [CarriersRepository, CarriersAdminService, CarrierSettingsSource],
  exports: [CarriersAdminService, CarrierSettingsSource],
})
export class CarriersModule {}
